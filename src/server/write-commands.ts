// Every write command by its name, `<module>.<exported name>`: the request thread finds a
// command's name here (events/write-path.ts), and SQLite's writer thread, handed this table by
// its entry (sqlite-thread.ts), finds the command by that name. write-commands.test.ts holds each
// name to its module.
import { confirmBankLines, forgetPayerRule, undoBankBatch } from './modules/bank/bank.commands.ts';
import {
  acceptInvitation,
  changeMember,
  inviteMember,
  removeMember,
  revokeInvitation,
} from './modules/books/members.commands.ts';
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
import { runnerOf, type CommandTable } from './modules/events/write-path.ts';
import { recordEntry, setBalance, voidEntry } from './modules/ledger/ledger.commands.ts';
import {
  finishSend,
  markSentByHand,
  remindersAfterChange,
  saveReminderPlan,
  setClientReminders,
} from './modules/reminders/reminders.commands.ts';
import {
  finishSetup,
  saveLanguage,
  saveLockDate,
  saveSettings,
} from './modules/settings/settings.commands.ts';
import {
  discardImportStaging,
  importFile,
  openImportStaging,
  publishImport,
  stageImportSlice,
} from './modules/transfer/import.commands.ts';
import { restoreFile } from './modules/transfer/restore.commands.ts';

export const writeCommands = {
  'bank.confirmBankLines': confirmBankLines,
  'bank.forgetPayerRule': forgetPayerRule,
  'bank.undoBankBatch': undoBankBatch,
  'books.acceptInvitation': acceptInvitation,
  'books.changeMember': changeMember,
  'books.inviteMember': inviteMember,
  'books.removeMember': removeMember,
  'books.revokeInvitation': revokeInvitation,
  'client-links.createClientLink': createClientLink,
  'client-links.recordLinkOpened': recordLinkOpened,
  'client-links.revokeClientLink': revokeClientLink,
  'client-links.revokeClientLinks': revokeClientLinks,
  'clients.addClient': addClient,
  'clients.deleteClient': deleteClient,
  'clients.editClient': editClient,
  'clients.setClientLanguage': setClientLanguage,
  'ledger.recordEntry': recordEntry,
  'ledger.setBalance': setBalance,
  'ledger.voidEntry': voidEntry,
  'reminders.finishSend': finishSend,
  'reminders.markSentByHand': markSentByHand,
  'reminders.saveReminderPlan': saveReminderPlan,
  'reminders.setClientReminders': setClientReminders,
  'settings.finishSetup': finishSetup,
  'settings.saveLanguage': saveLanguage,
  'settings.saveLockDate': saveLockDate,
  'settings.saveSettings': saveSettings,
  'transfer.discardImportStaging': discardImportStaging,
  'transfer.importFile': importFile,
  'transfer.openImportStaging': openImportStaging,
  'transfer.publishImport': publishImport,
  'transfer.stageImportSlice': stageImportSlice,
  'transfer.restoreFile': restoreFile,
} as const satisfies CommandTable;

export type WriteCommand = (typeof writeCommands)[keyof typeof writeCommands];

/** What every change does in its transaction besides its own work (write-path.ts). */
export const afterEveryChange = remindersAfterChange;

export const runWriteCommand = runnerOf(writeCommands, afterEveryChange);
