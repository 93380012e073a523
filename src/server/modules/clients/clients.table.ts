import type { Generated } from 'kysely';
import type { Currency } from '../../../shared/money.ts';
import type { HistoryAction } from '../../../shared/schemas/clients.ts';

export interface ClientsTable {
  id: string;
  owner_id: string;
  first_name: string;
  last_name: string;
  /** "first last" folded to lower case: the list's sort order on both databases. */
  name_key: string;
  email: string;
  phone: string;
  /** Integer minor units of `currency`. */
  balance: number;
  currency: Currency;
  version: number;
  created_at: number;
  updated_at: number;
}

export interface ClientHistoryTable {
  id: Generated<number>;
  client_id: string;
  owner_id: string;
  action: HistoryAction;
  at: number;
  version: number;
  /** JSON of the client's fields before and after the change; null where there is no such side. */
  before: string | null;
  after: string | null;
}

export interface ClientTables {
  clients: ClientsTable;
  client_history: ClientHistoryTable;
}
