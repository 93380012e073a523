import type { Currency } from '../../../shared/money.ts';

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

export interface ClientTables {
  clients: ClientsTable;
}
