import type { Transaction } from 'kysely';
import type { Client } from '../../../shared/schemas/clients.ts';
import { utcDay } from '../../../shared/dates.ts';
import { nameSortKey } from '../../../shared/names.ts';
import type { Locale } from '../../../shared/locales.ts';
import type { Database, Executor } from '../../db/database.ts';
import { toClient, type ClientValues } from './clients.queries.ts';

/** Rows per insert: well inside both databases' limits on bound parameters. */
const insertBatch = 500;

/** What a new client's row needs beyond its values: the day its opening balance falls due. */
export type NewClient = ClientValues & { id: string; openingDueDay?: string };

/**
 * A new client's row: version 1, created and updated now. Its only entry is its opening balance:
 * if it is owed, it is owed from its due day (today when none is given).
 */
export function newClientRow(client: NewClient, bookId: string, now: number) {
  return {
    id: client.id,
    book_id: bookId,
    ...columnsOf(client),
    version: 1,
    created_at: now,
    updated_at: now,
    oldest_due_on: client.balance > 0 ? (client.openingDueDay ?? utcDay(now)) : null,
  };
}

function columnsOf(values: ClientValues) {
  return {
    first_name: values.firstName,
    last_name: values.lastName,
    name_key: nameSortKey(values),
    email: values.email,
    phone: values.phone,
    balance: values.balance,
    currency: values.currency,
    company: values.company,
    address_line1: values.addressLine1,
    address_line2: values.addressLine2,
    city: values.city,
    postcode: values.postcode,
    country: values.country,
    tax_id: values.taxId,
    notes: values.notes,
  };
}

export async function insertClient(
  db: Executor,
  client: NewClient & { bookId: string; now: number },
): Promise<Client> {
  const row = await db
    .insertInto('clients')
    .values(newClientRow(client, client.bookId, client.now))
    .returningAll()
    .executeTakeFirstOrThrow();
  return toClient(row);
}

/** Writes the new values only if the client is still at `expectedVersion`; undefined otherwise. */
export async function updateClientIfVersion(
  db: Executor,
  bookId: string,
  id: string,
  expectedVersion: number,
  values: ClientValues,
  now: number,
): Promise<Client | undefined> {
  const row = await db
    .updateTable('clients')
    .set({ ...columnsOf(values), version: expectedVersion + 1, updated_at: now })
    .where('id', '=', id)
    .where('book_id', '=', bookId)
    .where('version', '=', expectedVersion)
    .returningAll()
    .executeTakeFirst();
  return row && toClient(row);
}

export async function updateClientLanguage(
  db: Executor,
  bookId: string,
  id: string,
  language: Locale | null,
): Promise<void> {
  await db
    .updateTable('clients')
    .set({ language })
    .where('id', '=', id)
    .where('book_id', '=', bookId)
    .execute();
}

/** Answers the client as it was, for the kept sums; undefined when there was none. */
export async function deleteClient(
  db: Executor,
  bookId: string,
  id: string,
): Promise<Client | undefined> {
  const row = await db
    .deleteFrom('clients')
    .where('id', '=', id)
    .where('book_id', '=', bookId)
    .returningAll()
    .executeTakeFirst();
  return row && toClient(row);
}

/** What of each new row the kept sums count (ledger's `ClientPart`). */
const sumsPartOf = (row: ReturnType<typeof newClientRow>) => ({
  currency: row.currency,
  balance: row.balance,
  oldestDue: row.oldest_due_on,
});

/**
 * Adds many clients (an import) in the caller's transaction, a few hundred rows per statement;
 * answers what of them the kept sums count.
 */
export async function insertClients(
  trx: Transaction<Database>,
  bookId: string,
  clients: NewClient[],
  now: number,
) {
  const rows = clients.map((client) => newClientRow(client, bookId, now));
  for (let start = 0; start < rows.length; start += insertBatch) {
    await trx
      .insertInto('clients')
      .values(rows.slice(start, start + insertBatch))
      .execute();
  }
  return rows.map(sumsPartOf);
}

/**
 * Clients brought back from an export file, with the versions and times they had there; answers
 * what of them the kept sums count.
 */
export async function insertRestoredClients(
  trx: Transaction<Database>,
  bookId: string,
  clients: readonly (ClientValues & {
    id: string;
    version: number;
    createdAt: number;
    updatedAt: number;
    oldestDueOn: string | null;
  })[],
) {
  const rows = clients.map((client) => ({
    id: client.id,
    book_id: bookId,
    ...columnsOf(client),
    version: client.version,
    created_at: client.createdAt,
    updated_at: client.updatedAt,
    oldest_due_on: client.oldestDueOn,
  }));
  for (let start = 0; start < rows.length; start += insertBatch) {
    await trx
      .insertInto('clients')
      .values(rows.slice(start, start + insertBatch))
      .execute();
  }
  return rows.map(sumsPartOf);
}

/** The clients written under a staging account, made `to`'s (decision 042). */
export async function moveClients(
  trx: Transaction<Database>,
  from: string,
  to: string,
): Promise<void> {
  await trx.updateTable('clients').set({ book_id: to }).where('book_id', '=', from).execute();
}

/** Deletes up to `limit` of a staging account's clients (their entries go with them). */
export async function deleteSomeClients(
  trx: Transaction<Database>,
  scopeId: string,
  limit: number,
): Promise<number> {
  const some = trx.selectFrom('clients').select('id').where('book_id', '=', scopeId).limit(limit);
  const result = await trx
    .deleteFrom('clients')
    .where('book_id', '=', scopeId)
    .where('id', 'in', some)
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}
