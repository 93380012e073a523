// One table, so a command missing here does not compile where it is called.
import { confirmBankLines, forgetPayerRule, undoBankBatch } from './modules/bank/bank.commands.ts';
import {
  createClientLink,
  recordLinkOpened,
  revokeClientLink,
  revokeClientLinks,
} from './modules/client-links/client-links.commands.ts';
import {
  addClient,
  deleteClient,
  editClient,
  setClientLanguage,
} from './modules/clients/clients.commands.ts';
import { runnerOf } from './modules/events/write-path.ts';
import { recordEntry, setBalance, voidEntry } from './modules/ledger/ledger.commands.ts';
import {
  finishSend,
  markSentByHand,
  remindersAfterChange,
  saveReminderPlan,
  setClientReminders,
} from './modules/reminders/reminders.commands.ts';
import { finishSetup, saveLanguage, saveSettings } from './modules/settings/settings.commands.ts';
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
  finishSetup,
  importFile,
  restoreFile,
  setClientLanguage,
  createClientLink,
  revokeClientLink,
  revokeClientLinks,
  recordLinkOpened,
  saveReminderPlan,
  setClientReminders,
  finishSend,
  markSentByHand,
  confirmBankLines,
  undoBankBatch,
  forgetPayerRule,
] as const;

export type WriteCommand = (typeof writeCommands)[number];

/** What every change does in its transaction besides its own work (write-path.ts). */
export const afterEveryChange = remindersAfterChange;

export const runWriteCommand = runnerOf(writeCommands, afterEveryChange);
