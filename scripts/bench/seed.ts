import { randomBytes } from 'node:crypto';
import { DatabaseSync, type SQLInputValue, type StatementSync } from 'node:sqlite';
import { addDays, utcDay } from '../../src/shared/dates.ts';
import { allocate, type LedgerLine } from '../../src/server/modules/ledger/ageing.ts';
import { newClientRow } from '../../src/server/modules/clients/clients.repository.ts';
import { toEntryRow } from '../../src/server/modules/ledger/ledger.repository.ts';
import { toEventRow } from '../../src/server/modules/events/events.repository.ts';
import { noBusiness, type ClientSnapshot } from '../../src/shared/schemas/clients.ts';
import type { EntryDetail } from '../../src/shared/schemas/events.ts';
import { toEntryDetail } from '../../src/server/modules/ledger/ledger.queries.ts';
import { toSnapshot } from '../../src/server/modules/clients/clients.queries.ts';

/**
 * Writes clients straight into the SQLite file the running server uses (WAL lets a second
 * connection write), in one transaction: 100,000 rows through the API would take minutes.
 * The rows are made by the app's own functions (clients.repository.ts `newClientRow`,
 * ledger.repository.ts `toEntryRow`, events.repository.ts `toEventRow`), as adding a client
 * writes them: 22-character base64url ids, version 1, the folded name key, the oldest due day,
 * the opening entry of a balance other than 0, and one 'created' event per client with its
 * snapshot as JSON (tests/bench-seed.test.ts compares them with the app's).
 */

const currencies = ['KRW', 'USD', 'CAD', 'MYR'] as const;
type Currency = (typeof currencies)[number];

// prettier-ignore
const firstNames = [
  'Ada', 'Bongani', 'Chen', 'Dara', 'Émile', 'Farah', 'Gustavo', 'Hana', 'Ines', 'Jae-won',
  'Kofi', 'Lena', 'Minh', 'Nadia', 'Oskar', 'Priya', 'Quentin', 'Rosa', 'Siti', 'Tomás',
  'Uma', 'Viktor', 'Wei', 'Ximena', 'Yusuf', 'Zoë',
];
// prettier-ignore
const lastNames = [
  'Abdullah', 'Baker', 'Choi', 'Dubois', 'Eriksen', 'Fernández', 'Gupta', 'Hassan', 'Ito',
  'Jansen', 'Kim', 'Lim', 'MacDonald', 'Nakamura', 'Okafor', 'Park', 'Quispe', 'Rahman',
  'Schmidt', 'Tan', 'Ueda', 'Vargas', 'Wong', 'Yılmaz', 'Zhang',
];

/** A small seeded generator, so two runs with the same flags seed the same mix. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const pick = <T>(random: () => number, items: readonly T[]): T =>
  items[Math.floor(random() * items.length)] as T;

/** A seeded client's e-mail: the names folded to plain ASCII, as the address of a real one would. */
const seedEmail = (local: string) =>
  `${local}@example.com`
    .normalize('NFD')
    .replace(/[^\x20-\x7e]/g, '')
    .toLowerCase();

/**
 * Inserts rows into `table` as the app's row functions make them, each value bound by its
 * column's name: the statement is prepared at the first row, whose keys name the columns.
 */
function rowInserter(db: DatabaseSync, table: string) {
  let statement: StatementSync | null = null;
  return (row: Record<string, SQLInputValue>) => {
    if (!statement) {
      const columns = Object.keys(row);
      const values = columns.map((column) => `$${column}`);
      statement = db.prepare(
        `insert into ${table} (${columns.join(', ')}) values (${values.join(', ')})`,
      );
    }
    return statement.run(row);
  };
}

/**
 * The owner's month figures made again from the entries, as the ledger's write path keeps them
 * beside each entry (migration 0026 fills them the same way).
 */
function keepLedgerMonths(db: DatabaseSync, bookId: string): void {
  db.prepare('delete from ledger_months where book_id = ?').run(bookId);
  db.prepare(
    `insert into ledger_months (book_id, currency, month, high, low)
     select book_id, currency, substr(occurred_on, 1, 7), sum(amount >> 32), sum(amount & 4294967295)
     from entries where book_id = ? group by book_id, currency, substr(occurred_on, 1, 7)`,
  ).run(bookId);
}

/**
 * The owner's kept sums made again from the clients and entries, as the write path keeps them
 * beside each change (migration 0038 fills them the same way).
 */
function keepOwnerSums(db: DatabaseSync, bookId: string): void {
  db.prepare('delete from client_sums where book_id = ?').run(bookId);
  db.prepare('delete from due_sums where book_id = ?').run(bookId);
  const owed = 'case when balance > 0 then balance else 0 end';
  const credit = 'case when balance < 0 then -balance else 0 end';
  db.prepare(
    `insert into client_sums
       (book_id, currency, clients, owing, owed_high, owed_low, in_credit, credit_high, credit_low)
     select book_id, currency, count(*), sum(balance > 0), sum((${owed}) >> 32),
       sum((${owed}) & 4294967295), sum(balance < 0), sum((${credit}) >> 32),
       sum((${credit}) & 4294967295)
     from clients where book_id = ? group by book_id, currency`,
  ).run(bookId);
  db.prepare(
    `insert into due_sums
       (book_id, currency, day, open_high, open_low, clients, balance_high, balance_low)
     select book_id, currency, coalesce(due_on, occurred_on), sum(open_amount >> 32),
       sum(open_amount & 4294967295), 0, 0, 0
     from entries where book_id = ? and open_amount > 0
     group by book_id, currency, coalesce(due_on, occurred_on)`,
  ).run(bookId);
  db.prepare(
    `insert into due_sums
       (book_id, currency, day, open_high, open_low, clients, balance_high, balance_low)
     select book_id, currency, oldest_due_on, 0, 0, count(*), sum(balance >> 32),
       sum(balance & 4294967295)
     from clients where book_id = ? and oldest_due_on is not null
     group by book_id, currency, oldest_due_on
     on conflict (book_id, currency, day) do update set clients = excluded.clients,
       balance_high = excluded.balance_high, balance_low = excluded.balance_low`,
  ).run(bookId);
}

/** The history's record of a client added with `entry` as its opening, as `clients.add` makes it. */
const createdEvent = (client: ClientSnapshot & { id: string }, entry?: EntryDetail | null) => ({
  clientId: client.id,
  action: 'created' as const,
  version: 1,
  before: null,
  after: toSnapshot(client),
  entry,
});

/** Minor units: about a quarter settled, some in credit, most owing, scaled to the currency. */
function balanceFor(random: () => number, currency: Currency): number {
  const roll = random();
  if (roll < 0.25) return 0;
  const scale = currency === 'KRW' ? 5_000_000 : 500_000;
  const amount = Math.max(1, Math.floor(random() * scale));
  return roll < 0.4 ? -amount : amount;
}

export interface SeedOptions {
  file: string;
  bookId: string;
  count: number;
  random: () => number;
  /** Added to the running number in names and e-mails, so later batches do not repeat them. */
  offset?: number;
}

/**
 * Inserts `count` clients, each with the opening entry of its balance and its 'created' event,
 * as adding a client through the app writes them (`clients.add`): the ledger adds up to the
 * balance, so a change's ledger read and a statement start where the app's would. Returns the
 * new ids in insertion order.
 */
export function seedClients({ file, bookId, count, random, offset = 0 }: SeedOptions): string[] {
  const db = new DatabaseSync(file, { timeout: 30_000 });
  const ids: string[] = [];
  try {
    db.exec('PRAGMA foreign_keys = ON');
    const insertClient = rowInserter(db, 'clients');
    const insertEvent = rowInserter(db, 'events');
    const insertOpening = rowInserter(db, 'entries');
    const now = Date.now();
    const yearMs = 365 * 24 * 3600 * 1000;
    db.exec('BEGIN IMMEDIATE');
    try {
      for (let i = 0; i < count; i++) {
        const n = offset + i;
        const firstName = pick(random, firstNames);
        const lastName = pick(random, lastNames);
        const currency = currencies[n % currencies.length] as Currency;
        const client = {
          id: randomBytes(16).toString('base64url'),
          firstName,
          lastName,
          email: seedEmail(`${firstName}.${lastName}.${n}`),
          phone: `+1 555 ${String(1_000_000 + (n % 9_000_000)).padStart(7, '0')}`,
          balance: balanceFor(random, currency),
          currency,
          ...noBusiness,
        };
        // Oldest first, so event ids increase with created_at as they would have in real use.
        const createdAt = now - yearMs + Math.floor((yearMs * i) / Math.max(1, count));
        insertClient(newClientRow(client, bookId, createdAt));
        let entry: EntryDetail | null = null;
        if (client.balance !== 0) {
          const opening = toEntryRow(
            {
              bookId,
              clientId: client.id,
              kind: 'opening',
              amount: client.balance,
              currency,
              date: utcDay(createdAt),
              dueDate: null,
              note: '',
              voidOf: null,
              createdBy: bookId,
              // As adding a client records it: unpaid as far as it is owed.
              openAmount: Math.max(client.balance, 0),
            },
            createdAt,
          );
          const { lastInsertRowid } = insertOpening(opening);
          entry = toEntryDetail({
            id: Number(lastInsertRowid),
            ...opening,
            bank_line_id: null,
            corrects: null,
          });
        }
        insertEvent(toEventRow(bookId, createdAt, createdEvent(client, entry)));
        ids.push(client.id);
      }
      keepLedgerMonths(db, bookId);
      keepOwnerSums(db, bookId);
      db.exec('COMMIT');
    } catch (error) {
      db.exec('ROLLBACK');
      throw error;
    }
    // Fold the seed into the main file, as a long-running database would have by now.
    db.exec('PRAGMA wal_checkpoint(TRUNCATE)');
  } finally {
    db.close();
  }
  return ids;
}

/** A new owner, joined through the API: the session cookie and the owner's id, to seed for. */
export async function joinOwner(baseUrl: string): Promise<{ cookie: string; bookId: string }> {
  const email = `bench-${Date.now()}@example.com`;
  const response = await fetch(`${baseUrl}/api/auth/join`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password: `bench ${Math.random().toString(36).slice(2)} pass` }),
  });
  if (response.status !== 201) {
    throw new Error(`join answered ${response.status}: ${await response.text()}`);
  }
  const { user } = (await response.json()) as { user: { id: string } };
  const cookie = response.headers
    .getSetCookie()
    .map((header) => header.split(';')[0] ?? '')
    .find((pair) => pair.startsWith('balance_session='));
  if (!cookie) throw new Error('join set no session cookie');
  return { cookie, bookId: user.id };
}

export interface LedgerSeedOptions {
  file: string;
  bookId: string;
  clients: number;
  /** Entries in all, spread over the clients (charges with due dates, and payments). */
  entries: number;
  random: () => number;
  /** Also an `entry_recorded` event per entry, by the owner, as the app records them. */
  entryEvents?: boolean;
}

/**
 * An owner with a long ledger: `clients` clients in USD and KRW and `entries` charges and
 * payments over the last 200 days, written straight into the file in one transaction. What the
 * app keeps for ageing is worked out by its own rule (`allocate` in ageing.ts: payments settle the
 * oldest charges first), so each entry's open amount, each client's balance (the sum of its
 * entries) and oldest unpaid due day are what the app itself would have written. The history
 * is lighter than the app's: one 'created' event per client, none for the entries. Returns the
 * clients' ids (the first in USD, then alternating).
 */
export function seedLedgers({
  file,
  bookId,
  clients,
  entries,
  random,
  entryEvents = false,
}: LedgerSeedOptions): string[] {
  const db = new DatabaseSync(file, { timeout: 30_000 });
  const ids: string[] = [];
  try {
    db.exec('PRAGMA foreign_keys = ON');
    const insertClient = rowInserter(db, 'clients');
    const insertEvent = rowInserter(db, 'events');
    const insertEntry = rowInserter(db, 'entries');
    const now = Date.now();
    const today = utcDay(now);
    db.exec('BEGIN IMMEDIATE');
    try {
      const last = db.prepare('select coalesce(max(id), 0) as id from entries').get() as {
        id: number;
      };
      let entryId = last.id + 1;
      for (let i = 0; i < clients; i++) {
        const firstName = pick(random, firstNames);
        const lastName = pick(random, lastNames);
        const currency: Currency = i % 2 === 0 ? 'USD' : 'KRW';
        const scale = currency === 'KRW' ? 500_000 : 50_000;
        // Each client's share of the entries, so that they add up to `entries` exactly.
        const count =
          Math.floor(((i + 1) * entries) / clients) - Math.floor((i * entries) / clients);
        const lines: LedgerLine[] = [];
        for (let k = 0; k < count; k++) {
          const date = addDays(today, -Math.floor(random() * 200));
          // About two charges to each payment; a payment takes up to a charge and a half.
          const charge = k === 0 || random() < 0.65;
          const amount = Math.max(1, Math.floor(random() * scale)) * (charge ? 1 : -1.5);
          lines.push({
            id: entryId++,
            amount: Math.trunc(amount),
            date,
            dueDate: charge ? addDays(date, 30) : null,
            voidOf: null,
          });
        }
        const { open, oldestDue } = allocate(lines);
        const balance = lines.reduce((sum, line) => sum + line.amount, 0);
        const client = {
          id: randomBytes(16).toString('base64url'),
          firstName,
          lastName,
          email: seedEmail(`${firstName}.${lastName}.ledger.${i}`),
          phone: `+1 555 ${String(2_000_000 + i).padStart(7, '0')}`,
          balance,
          currency,
          ...noBusiness,
        };
        const createdAt = now - 200 * 86_400_000;
        // Its oldest unpaid due day is the ledger's, not the day it was added.
        insertClient({ ...newClientRow(client, bookId, createdAt), oldest_due_on: oldestDue });
        insertEvent(toEventRow(bookId, createdAt, createdEvent(client)));
        ids.push(client.id);
        for (const line of lines) {
          const row = toEntryRow(
            {
              bookId,
              clientId: client.id,
              kind: line.amount > 0 ? 'charge' : 'payment',
              amount: line.amount,
              currency,
              date: line.date,
              dueDate: line.dueDate,
              note: '',
              voidOf: null,
              createdBy: bookId,
              openAmount: open.get(line.id) ?? 0,
            },
            createdAt,
          );
          // Numbered before they are written: the allocation above names entries by id.
          insertEntry({ id: line.id, ...row });
          if (entryEvents) {
            const snapshot = toSnapshot(client);
            insertEvent(
              toEventRow(bookId, createdAt, {
                clientId: client.id,
                action: 'entry_recorded',
                version: 1,
                before: snapshot,
                after: snapshot,
                entry: toEntryDetail({ id: line.id, ...row, bank_line_id: null, corrects: null }),
                actorId: bookId,
              }),
            );
          }
        }
      }
      keepLedgerMonths(db, bookId);
      keepOwnerSums(db, bookId);
      db.exec('COMMIT');
    } catch (error) {
      db.exec('ROLLBACK');
      throw error;
    }
    db.exec('PRAGMA wal_checkpoint(TRUNCATE)');
  } finally {
    db.close();
  }
  return ids;
}
