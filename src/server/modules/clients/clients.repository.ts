import { sql, type Kysely, type Selectable, type Transaction } from 'kysely';
import type { Currency } from '../../../shared/money.ts';
import type {
  Client,
  ClientSnapshot,
  CurrencyTotal,
  HistoryAction,
  HistoryEntry,
} from '../../../shared/schemas/clients.ts';
import { currencies } from '../../../shared/money.ts';
import type { Database } from '../../db/database.ts';
import type { EventsTable } from '../events/events.table.ts';
import type { ClientsTable } from './clients.table.ts';

type Executor = Kysely<Database> | Transaction<Database>;
type ClientRow = Selectable<ClientsTable>;

export interface ClientValues {
  firstName: string;
  lastName: string;
  email: string;
  phone: string;
  balance: number;
  currency: Currency;
}

export function toClient(row: ClientRow): Client {
  return {
    id: row.id,
    firstName: row.first_name,
    lastName: row.last_name,
    email: row.email,
    phone: row.phone,
    balance: row.balance,
    currency: row.currency,
    version: row.version,
    createdAt: new Date(row.created_at).toISOString(),
    updatedAt: new Date(row.updated_at).toISOString(),
  };
}

export function toSnapshot(client: ClientValues): ClientSnapshot {
  const { firstName, lastName, email, phone, balance, currency } = client;
  return { firstName, lastName, email, phone, balance, currency };
}

function toHistoryEntry(row: Selectable<EventsTable>): HistoryEntry {
  return {
    id: row.id,
    // Only a client's own events are read here, never a settings change.
    action: row.action as HistoryAction,
    at: new Date(row.at).toISOString(),
    version: row.version,
    before: row.before === null ? null : (JSON.parse(row.before) as ClientSnapshot),
    after: row.after === null ? null : (JSON.parse(row.after) as ClientSnapshot),
  };
}

const nameKey = (firstName: string, lastName: string) =>
  `${firstName} ${lastName}`.normalize('NFC').toLowerCase();

function columnsOf(values: ClientValues) {
  return {
    first_name: values.firstName,
    last_name: values.lastName,
    name_key: nameKey(values.firstName, values.lastName),
    email: values.email,
    phone: values.phone,
    balance: values.balance,
    currency: values.currency,
  };
}

export async function listClients(db: Executor, ownerId: string): Promise<Client[]> {
  const rows = await db
    .selectFrom('clients')
    .selectAll()
    .where('owner_id', '=', ownerId)
    .orderBy('name_key')
    .orderBy('id')
    .execute();
  return rows.map(toClient);
}

/** Exact sums per currency, computed by the database and carried as text (they may pass 2^53). */
export async function totalsByCurrency(db: Executor, ownerId: string): Promise<CurrencyTotal[]> {
  const rows = await db
    .selectFrom('clients')
    .select(['currency', sql<string>`cast(sum(balance) as text)`.as('total')])
    .where('owner_id', '=', ownerId)
    .groupBy('currency')
    .execute();
  return currencies.flatMap((currency) => {
    const row = rows.find((candidate) => candidate.currency === currency);
    return row ? [{ currency, total: BigInt(row.total).toString() }] : [];
  });
}

export async function findClient(
  db: Executor,
  ownerId: string,
  id: string,
): Promise<Client | undefined> {
  const row = await db
    .selectFrom('clients')
    .selectAll()
    .where('id', '=', id)
    .where('owner_id', '=', ownerId)
    .executeTakeFirst();
  return row && toClient(row);
}

export async function insertClient(
  db: Executor,
  client: ClientValues & { id: string; ownerId: string; now: number },
): Promise<Client> {
  const row = await db
    .insertInto('clients')
    .values({
      id: client.id,
      owner_id: client.ownerId,
      ...columnsOf(client),
      version: 1,
      created_at: client.now,
      updated_at: client.now,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
  return toClient(row);
}

/** Writes the new values only if the client is still at `expectedVersion`; undefined otherwise. */
export async function updateClientIfVersion(
  db: Executor,
  ownerId: string,
  id: string,
  expectedVersion: number,
  values: ClientValues,
  now: number,
): Promise<Client | undefined> {
  const row = await db
    .updateTable('clients')
    .set({ ...columnsOf(values), version: expectedVersion + 1, updated_at: now })
    .where('id', '=', id)
    .where('owner_id', '=', ownerId)
    .where('version', '=', expectedVersion)
    .returningAll()
    .executeTakeFirst();
  return row && toClient(row);
}

export async function deleteClient(db: Executor, ownerId: string, id: string): Promise<boolean> {
  const result = await db
    .deleteFrom('clients')
    .where('id', '=', id)
    .where('owner_id', '=', ownerId)
    .executeTakeFirst();
  return result.numDeletedRows > 0n;
}

export async function listHistory(
  db: Executor,
  ownerId: string,
  clientId: string,
): Promise<HistoryEntry[]> {
  const rows = await db
    .selectFrom('events')
    .selectAll()
    .where('client_id', '=', clientId)
    .where('owner_id', '=', ownerId)
    .orderBy('id', 'desc')
    .execute();
  return rows.map(toHistoryEntry);
}
