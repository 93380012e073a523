// What other modules and this module's routes may read of clients and their ledgers. Changes go
// through clients.commands.ts.
export {
  countClients,
  findClient,
  InvalidCursorError,
  listClientsPage,
  ownerEmailKeys,
  totalsByCurrency,
  type ClientFilter,
} from './clients.repository.ts';
export { ageingByCurrency, listEntries, readOwnerEntries } from './entries.repository.ts';
