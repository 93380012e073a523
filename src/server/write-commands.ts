// The write path's commands, in one table. The app's write path accepts only these
// (`WritePath<WriteCommand>` in app.ts), and SQLite's writer thread runs these (sqlite-thread.ts):
// a command missing here does not compile where it is called.
import { addClient, deleteClient, editClient } from './modules/clients/clients.commands.ts';
import { runnerOf } from './modules/events/write-path.ts';
import { recordEntry, setBalance, voidEntry } from './modules/ledger/ledger.commands.ts';
import { saveLanguage, saveSettings } from './modules/settings/settings.commands.ts';
import { importFile } from './modules/transfer/import.commands.ts';
import { restoreFile } from './modules/transfer/restore.commands.ts';

export const writeCommands = [
  addClient,
  editClient,
  setBalance,
  recordEntry,
  voidEntry,
  deleteClient,
  saveSettings,
  saveLanguage,
  importFile,
  restoreFile,
] as const;

export type WriteCommand = (typeof writeCommands)[number];

/** How SQLite's writer thread runs them, by the name that crossed with the message. */
export const runWriteCommand = runnerOf(writeCommands);
