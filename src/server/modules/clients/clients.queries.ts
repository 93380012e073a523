// What other modules and this module's routes and commands may read of clients. Changes go
// through clients.commands.ts; their SQL is in clients.repository.ts.
import { sql, type Selectable } from 'kysely';
import { type Currency, currencies } from '../../../shared/money.ts';
import {
  businessFields,
  type BusinessDetails,
  type BusinessField,
  type Client,
  type ClientSnapshot,
  type ClientSort,
  type CurrencyTotal,
} from '../../../shared/schemas/clients.ts';
import { foldText } from '../../../shared/names.ts';
import { isLocale, type Locale } from '../../../shared/locales.ts';
import type { Dialect, Executor } from '../../db/database.ts';
import { inSlowReadLane } from '../../db/sqlite/slow-read-lane.ts';
import type { ClientsTable } from './clients.table.ts';

type ClientRow = Selectable<ClientsTable>;

export interface ClientValues extends BusinessDetails {
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
    company: row.company,
    addressLine1: row.address_line1,
    addressLine2: row.address_line2,
    city: row.city,
    postcode: row.postcode,
    country: row.country,
    taxId: row.tax_id,
    notes: row.notes,
    version: row.version,
    oldestDueDate: row.oldest_due_on,
    createdAt: new Date(row.created_at).toISOString(),
    updatedAt: new Date(row.updated_at).toISOString(),
  };
}

const snapshotBusinessFields = businessFields.filter(
  (field): field is Exclude<BusinessField, 'notes'> => field !== 'notes',
);

/**
 * What the history keeps of a client: its name, contact and balance, and a business's company,
 * address and tax id, each only when not empty. Not the notes: every event would copy them
 * (an edit adds them itself, `withNotes`).
 */
export function toSnapshot(client: ClientSnapshot): ClientSnapshot {
  const { firstName, lastName, email, phone, balance, currency } = client;
  const snapshot: ClientSnapshot = { firstName, lastName, email, phone, balance, currency };
  for (const field of snapshotBusinessFields) {
    const value = client[field];
    if (value) snapshot[field] = value;
  }
  return snapshot;
}

/** An edit's snapshot, with the private notes when there are any: so the History says they changed. */
export function withNotes(client: ClientSnapshot): ClientSnapshot {
  const snapshot = toSnapshot(client);
  return client.notes ? { ...snapshot, notes: client.notes } : snapshot;
}

export interface ClientFilter {
  bookId: string;
  /** A collector's user id: only the clients assigned to them (decision 044). */
  collectorId?: string | undefined;
  /** Part of a name (a company's or a person's), an e-mail or a phone number. */
  search?: string | undefined;
  currency?: Currency | undefined;
  /** Only balances above 0. */
  owes?: boolean | undefined;
  /** Only clients with an amount unpaid that fell due before this day (YYYY-MM-DD). */
  overdueOn?: string | undefined;
  /** Which database runs the query: on SQLite a search is narrowed by its trigram table first. */
  dialect?: Dialect | undefined;
}

/** The columns each sort orders by, the id last so every row has one place. */
const sortColumns: Record<ClientSort, (keyof ClientsTable)[]> = {
  name: ['name_key', 'id'],
  email: ['email', 'id'],
  balance: ['currency', 'balance', 'id'],
  created: ['created_at', 'id'],
};

const escapeLike = (text: string) => text.replace(/[\\%_]/g, (character) => `\\${character}`);

/**
 * The FTS5 query that finds every row holding each three-character piece of the search: a
 * superset of the rows the LIKE conditions match, read from the trigram index (migration
 * 0019-search-and-ageing-indexes). Null for a search shorter than three characters, which no
 * trigram covers.
 */
export function trigramQuery(search: string): string | null {
  const characters = [...search];
  const pieces = new Set<string>();
  for (let start = 0; start + 3 <= characters.length; start++)
    pieces.add(characters.slice(start, start + 3).join(''));
  if (pieces.size === 0) return null;
  // Each piece quoted as an FTS5 string, so no character of the search is read as syntax.
  return [...pieces].map((piece) => `"${piece.replaceAll('"', '""')}"`).join(' AND ');
}

/** The trigram query for a search whose folded form (for names) may differ from the typed one. */
function searchTrigrams(typed: string, folded: string): string | null {
  const asTyped = trigramQuery(typed);
  if (folded === typed) return asTyped;
  const asFolded = trigramQuery(folded);
  // One of the two too short for a trigram: that one could match any row, so nothing narrows.
  if (asTyped === null || asFolded === null) return null;
  return `(${asTyped}) OR (${asFolded})`;
}

function filtered(db: Executor, filter: ClientFilter, manyMatches = false) {
  let query = db.selectFrom('clients').where('book_id', '=', filter.bookId);
  const { collectorId } = filter;
  if (collectorId !== undefined) {
    query = query.where('id', 'in', (eb) =>
      eb
        .selectFrom('collector_clients')
        .select('client_id')
        .where('collector_clients.book_id', '=', filter.bookId)
        .where('collector_clients.user_id', '=', collectorId),
    );
  }
  if (filter.currency) query = query.where('currency', '=', filter.currency);
  if (filter.owes) query = query.where('balance', '>', 0);
  if (filter.overdueOn && manyMatches && filter.dialect === 'sqlite') {
    // SQLite would read every overdue client along their index and sort them all for one page;
    // when many are, walking the sort order's index finds a page's worth at once. A unary + is
    // SQLite's way to keep a condition off an index (PostgreSQL's planner weighs this itself).
    query = query.where(sql<boolean>`+oldest_due_on < ${filter.overdueOn}`);
  } else if (filter.overdueOn) {
    query = query.where('oldest_due_on', '<', filter.overdueOn);
  }
  const search = filter.search?.trim().normalize('NFC').toLowerCase();
  if (search) {
    // Names are kept folded (nameSortKey), so the search for them is folded the same way: "emilie"
    // finds Émilie and "Émilie" finds Emilie. E-mails and phone numbers are matched as typed.
    const name = foldText(search);
    const pattern = `%${escapeLike(search)}%`;
    const namePattern = `%${escapeLike(name)}%`;
    const trigrams = filter.dialect === 'sqlite' ? searchTrigrams(search, name) : null;
    if (trigrams) {
      query = query.where(
        sql<boolean>`clients.rowid in (select rowid from clients_search where clients_search match ${trigrams})`,
      );
    }
    query = query.where(
      (eb) =>
        sql<boolean>`(${eb.ref('name_key')} like ${namePattern} escape '\\' or lower(${eb.ref('email')}) like ${pattern} escape '\\' or ${eb.ref('phone')} like ${pattern} escape '\\')`,
    );
  }
  return query;
}

export class InvalidCursorError extends Error {}

function encodeCursor(values: unknown[]): string {
  return Buffer.from(JSON.stringify(values)).toString('base64url');
}

/** What each sort column holds, so a forged cursor cannot reach the database with the wrong type. */
const numericColumns = new Set<keyof ClientsTable>(['balance', 'created_at']);

function decodeCursor(cursor: string, columns: (keyof ClientsTable)[]): (string | number)[] {
  let values: unknown;
  try {
    values = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    throw new InvalidCursorError();
  }
  if (
    !Array.isArray(values) ||
    values.length !== columns.length ||
    !values.every((value, index) =>
      numericColumns.has(columns[index] as keyof ClientsTable)
        ? typeof value === 'number'
        : typeof value === 'string' && !value.includes('\u0000'),
    ) ||
    !values.every(
      (value) =>
        typeof value === 'string' || (typeof value === 'number' && Number.isSafeInteger(value)),
    )
  ) {
    throw new InvalidCursorError();
  }
  return values as (string | number)[];
}

/** One page of the owner's clients, read along an index from where the last page ended. */
export async function listClientsPage(
  db: Executor,
  filter: ClientFilter,
  page: {
    sort: ClientSort;
    dir: 'asc' | 'desc';
    cursor?: string | undefined;
    limit: number;
    /** Thousands of clients match (the count says so): read in sort order and stop at a page. */
    manyMatches?: boolean | undefined;
  },
): Promise<{ clients: Client[]; nextCursor: string | null }> {
  const columns = sortColumns[page.sort];
  let query = filtered(db, filter, page.manyMatches).selectAll();
  if (page.cursor) {
    const after = decodeCursor(page.cursor, columns);
    const operator = sql.raw(page.dir === 'asc' ? '>' : '<');
    query = query.where(
      sql<boolean>`(${sql.join(columns.map((column) => sql.ref(column)))}) ${operator} (${sql.join(after)})`,
    );
  }
  for (const column of columns) query = query.orderBy(column, page.dir);
  // A search may read many rows to fill one page.
  if (filter.search?.trim()) query = query.modifyEnd(inSlowReadLane);
  const rows = await query.limit(page.limit + 1).execute();
  const more = rows.length > page.limit;
  const shown = more ? rows.slice(0, page.limit) : rows;
  const last = shown[shown.length - 1];
  return {
    clients: shown.map(toClient),
    nextCursor: more && last ? encodeCursor(columns.map((column) => last[column])) : null,
  };
}

/** Whether the owner keeps any client at all: one row read, however many there are. */
export async function hasClients(db: Executor, bookId: string): Promise<boolean> {
  const row = await db
    .selectFrom('clients')
    .select('id')
    .where('book_id', '=', bookId)
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}

export async function countClients(db: Executor, filter: ClientFilter): Promise<number> {
  const row = await filtered(db, filter)
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

/**
 * How many clients match the filter and the exact sums of their balances per currency (carried
 * as text: they may pass 2^53), in one pass over the matching rows. SQLite's SUM fails past 2^63
 * (about 922,000 clients at the largest balance), so each balance is summed as its high and low
 * 32 bits, two sums that cannot overflow below 2^31 rows, and the two are joined exactly here.
 */
export async function summarizeClients(
  db: Executor,
  filter: ClientFilter,
): Promise<{ count: number; totals: CurrencyTotal[] }> {
  const rows = await filtered(db, filter)
    .select((eb) => [
      'currency',
      eb.fn.countAll<number>().as('count'),
      sql<string>`cast(sum(balance >> 32) as text)`.as('high'),
      sql<string>`cast(sum(balance & 4294967295) as text)`.as('low'),
    ])
    .groupBy('currency')
    .modifyEnd(inSlowReadLane)
    .execute();
  return {
    count: rows.reduce((sum, row) => sum + Number(row.count), 0),
    totals: currencies.flatMap((currency) => {
      const row = rows.find((candidate) => candidate.currency === currency);
      if (!row) return [];
      return [{ currency, total: ((BigInt(row.high) << 32n) + BigInt(row.low)).toString() }];
    }),
  };
}

export async function findClient(
  db: Executor,
  bookId: string,
  id: string,
): Promise<Client | undefined> {
  const row = await db
    .selectFrom('clients')
    .selectAll()
    .where('id', '=', id)
    .where('book_id', '=', bookId)
    .executeTakeFirst();
  return row && toClient(row);
}

/** The owner's clients among `ids` (in pieces, well inside both databases' parameter limits). */
export async function clientsByIds(
  db: Executor,
  bookId: string,
  ids: readonly string[],
): Promise<Client[]> {
  const found: Client[] = [];
  for (let start = 0; start < ids.length; start += 500) {
    const rows = await db
      .selectFrom('clients')
      .selectAll()
      .where('book_id', '=', bookId)
      .where('id', 'in', ids.slice(start, start + 500))
      .execute();
    found.push(...rows.map(toClient));
  }
  return found;
}

/** The client's own language (null: the owner's); undefined when the owner has no such client. */
export async function readClientLanguage(
  db: Executor,
  bookId: string,
  id: string,
): Promise<Locale | null | undefined> {
  const row = await db
    .selectFrom('clients')
    .select('language')
    .where('id', '=', id)
    .where('book_id', '=', bookId)
    .executeTakeFirst();
  if (!row) return undefined;
  return isLocale(row.language) ? row.language : null;
}

/** The clients' own languages, for those who have one (the others read the owner's). */
export async function clientLanguages(
  db: Executor,
  bookId: string,
  ids: readonly string[],
): Promise<Map<string, Locale>> {
  const languages = new Map<string, Locale>();
  for (let start = 0; start < ids.length; start += 500) {
    const rows = await db
      .selectFrom('clients')
      .select(['id', 'language'])
      .where('book_id', '=', bookId)
      .where('id', 'in', ids.slice(start, start + 500))
      .where('language', 'is not', null)
      .execute();
    for (const row of rows) if (isLocale(row.language)) languages.set(row.id, row.language);
  }
  return languages;
}

/** E-mails read at a time for an import: a short read, and a short stop for the request thread. */
const emailPage = 2000;

/**
 * The owner's e-mails, folded, to flag duplicates in an import. Read a page at a time along the
 * owner's e-mail index (owner, e-mail): read whole, the rows of 40,000 clients held the
 * request thread for 17-34 ms as they came in, and those of 80,000 for 43-68 ms.
 */
export async function ownerEmailKeys(
  db: Executor,
  bookId: string,
  pageSize = emailPage,
): Promise<Set<string>> {
  const keys = new Set<string>();
  let after: string | undefined;
  for (;;) {
    let query = db.selectFrom('clients').select('email').where('book_id', '=', bookId);
    // Past the last e-mail seen: any more clients with that very e-mail add no key.
    if (after !== undefined) query = query.where('email', '>', after);
    const rows = await query.orderBy('email').limit(pageSize).execute();
    for (const row of rows) keys.add(row.email.toLowerCase());
    after = rows.at(-1)?.email;
    if (rows.length < pageSize) return keys;
  }
}

/** Ids per query: well inside both databases' limits on bound parameters. */
const idsPerQuery = 500;

/** Which of these ids any account's client has already: ids are unique across the instance. */
export async function takenClientIds(db: Executor, ids: readonly string[]): Promise<Set<string>> {
  const taken = new Set<string>();
  for (let start = 0; start < ids.length; start += idsPerQuery) {
    const rows = await db
      .selectFrom('clients')
      .select('id')
      .where('id', 'in', ids.slice(start, start + idsPerQuery))
      .execute();
    for (const row of rows) taken.add(row.id);
  }
  return taken;
}
