// What other modules and this module's routes may read of ledgers. Changes go through
// ledger.commands.ts.
export {
  decodeEntryCursor,
  encodeEntryCursor,
  InvalidEntryCursorError,
  ledgerShape,
  listEntries,
  liveOpenings,
  openCharges,
  readOwnerEntries,
  statementLines,
} from './ledger.repository.ts';
export { ledgerByMonthSince } from './ledger-months.repository.ts';
export {
  ageingByCurrency,
  keptListSummary,
  overdueClientsByCurrency,
  positionsByCurrency,
  type CurrencyPosition,
} from './kept-sums.repository.ts';
