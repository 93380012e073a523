// What other modules and this module's routes may read of ledgers. Changes go through
// ledger.commands.ts.
export {
  ageingByCurrency,
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
