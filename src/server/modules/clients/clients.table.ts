import type { Generated } from 'kysely';
import type { Currency } from '../../../shared/money.ts';

export interface ClientsTable {
  id: string;
  book_id: string;
  first_name: string;
  last_name: string;
  /**
   * The name as shown, folded (`nameSortKey`), after the company's name when there is one: the
   * list's sort order and its name search on both databases.
   */
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
  /** en, ko or ms: the language the client reads their link's page in; null: the owner's. */
  language: Generated<string | null>;
  /** A business client's company, billing address and tax id; '' when not given (migration 0040). */
  company: Generated<string>;
  address_line1: Generated<string>;
  address_line2: Generated<string>;
  city: Generated<string>;
  postcode: Generated<string>;
  country: Generated<string>;
  tax_id: Generated<string>;
  /** The owner's private notes: never shown to the client. */
  notes: Generated<string>;
}

export interface ClientTables {
  clients: ClientsTable;
}
