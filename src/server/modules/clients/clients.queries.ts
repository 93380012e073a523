// What other modules and this module's routes may read of clients. Changes go through
// clients.commands.ts.
export {
  clientLanguages,
  clientsByIds,
  countClients,
  findClient,
  hasClients,
  InvalidCursorError,
  listClientsPage,
  ownerEmailKeys,
  readClientLanguage,
  summarizeClients,
  takenClientIds,
  toClient,
  toSnapshot,
  type ClientFilter,
} from './clients.repository.ts';
