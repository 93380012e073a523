// What other modules and this module's routes may read of clients and their ledgers. Changes go
// through clients.commands.ts.
export {
  countClients,
  findClient,
  InvalidCursorError,
  listClientsPage,
  ownerEmailKeys,
  summarizeClients,
  type ClientFilter,
} from './clients.repository.ts';
export {
  largestDebtors,
  ledgerByMonthSince,
  overdueClientsByCurrency,
  positionsByCurrency,
  type CurrencyPosition,
} from './overview.repository.ts';
export {
  ageingByCurrency,
  listEntries,
  readOwnerEntries,
  statementLines,
} from './entries.repository.ts';
