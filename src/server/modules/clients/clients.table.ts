import type { Generated } from 'kysely';
import type { Currency } from '../../../shared/money.ts';
import type { EntryKind } from '../../../shared/schemas/ledger.ts';

export interface ClientsTable {
  id: string;
  owner_id: string;
  first_name: string;
  last_name: string;
  /** "first last" folded to lower case: the list's sort order on both databases. */
  name_key: string;
  email: string;
  phone: string;
  /** Integer minor units of `currency`: the sum of the client's entries, kept with each one. */
  balance: number;
  currency: Currency;
  version: number;
  created_at: number;
  updated_at: number;
  /** The earliest day an amount still unpaid fell due (YYYY-MM-DD); null when nothing is owed. */
  oldest_due_on: Generated<string | null>;
}

/** The client's ledger: never edited or deleted, only reversed by a void. */
export interface EntriesTable {
  id: Generated<number>;
  owner_id: string;
  client_id: string;
  kind: EntryKind;
  /** Minor units of `currency`, signed by the effect on the balance. */
  amount: number;
  currency: Currency;
  /** YYYY-MM-DD */
  occurred_on: string;
  due_on: string | null;
  note: string;
  void_of: number | null;
  created_by: string | null;
  created_at: number;
  /** The part of the amount not yet settled by payments and credits (oldest first). */
  open_amount: Generated<number>;
}

export interface ClientTables {
  clients: ClientsTable;
  entries: EntriesTable;
}
