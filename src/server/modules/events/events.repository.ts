import { sql, type Kysely, type Selectable, type Transaction } from 'kysely';
import type { ClientSnapshot } from '../../../shared/schemas/clients.ts';
import type {
  ChangeEvent,
  EntryDetail,
  EventAction,
  HistoryEntry,
} from '../../../shared/schemas/events.ts';
import type { Database, Dialect } from '../../db/database.ts';
import type { EventsTable } from './events.table.ts';

type Executor = Kysely<Database> | Transaction<Database>;

/** Rows per INSERT: well inside both databases' limits on bound parameters. */
const insertBatch = 500;

/** One change as the log keeps it. */
export interface NewEvent {
  clientId: string | null;
  action: EventAction;
  version: number;
  before: ClientSnapshot | null;
  after: ClientSnapshot | null;
  entry?: EntryDetail | null;
  /** When it happened, if not at the change's own moment: a restored history keeps its times. */
  at?: number;
}

/**
 * On PostgreSQL an owner's writers take turns until commit, so the owner's event ids are
 * committed in increasing order and a reader resuming after id N can never miss a smaller id
 * committed later; it also means every command reads the owner's data as the last one left it.
 * (SQLite has one writer at a time already.)
 */
export async function lockOwnerLog(
  trx: Transaction<Database>,
  dialect: Dialect,
  ownerId: string,
): Promise<void> {
  if (dialect === 'postgres') {
    await sql`select pg_advisory_xact_lock(hashtextextended(${ownerId}, 0))`.execute(trx);
  }
}

/**
 * A change's first statement: whether the owner still exists. On PostgreSQL it also holds the
 * owner's row (FOR KEY SHARE, which the owner's other writers share and only the account's
 * deletion waits for) until the change commits. Every change takes the owner's row before any
 * other lock and the deletion takes it first too (`lockOwnerForRemoval`), so the two cannot each
 * hold what the other waits for; a change that begins after the deletion finds no owner.
 */
export async function holdOwner(
  trx: Transaction<Database>,
  dialect: Dialect,
  ownerId: string,
): Promise<boolean> {
  const owner = trx.selectFrom('users').select('id').where('id', '=', ownerId);
  const row = await (dialect === 'postgres' ? owner.forKeyShare() : owner).executeTakeFirst();
  return row !== undefined;
}

/**
 * The account's deletion takes the owner's row first (PostgreSQL): it waits for the owner's
 * changes already running, which hold it shared, and every later change waits for it and then
 * finds no owner (`holdOwner`). (SQLite's one writer runs them one after the other anyway.)
 */
export async function lockOwnerForRemoval(
  trx: Transaction<Database>,
  dialect: Dialect,
  ownerId: string,
): Promise<void> {
  if (dialect === 'postgres') {
    await trx.selectFrom('users').select('id').where('id', '=', ownerId).forUpdate().execute();
  }
}

/** An event's row as every insert writes it. */
export const toEventRow = (ownerId: string, at: number, event: NewEvent) => ({
  owner_id: ownerId,
  client_id: event.clientId,
  action: event.action,
  at: event.at ?? at,
  version: event.version,
  before: event.before && JSON.stringify(event.before),
  after: event.after && JSON.stringify(event.after),
  detail: event.entry ? JSON.stringify(event.entry) : null,
});

/** Appends events of one owner inside the caller's transaction, a few hundred rows a statement. */
export async function insertEvents(
  trx: Transaction<Database>,
  ownerId: string,
  at: number,
  events: readonly NewEvent[],
): Promise<void> {
  for (let start = 0; start < events.length; start += insertBatch) {
    await trx
      .insertInto('events')
      .values(
        events.slice(start, start + insertBatch).map((event) => toEventRow(ownerId, at, event)),
      )
      .execute();
  }
}

/** Whether the owner's log holds anything but changes of their settings. */
export async function hasClientHistory(db: Executor, ownerId: string): Promise<boolean> {
  const row = await db
    .selectFrom('events')
    .select('id')
    .where('owner_id', '=', ownerId)
    .where('action', '!=', 'settings_changed')
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}

export async function latestEventId(db: Kysely<Database>, ownerId: string): Promise<number> {
  const row = await db
    .selectFrom('events')
    .select((eb) => eb.fn.max('id').as('id'))
    .where('owner_id', '=', ownerId)
    .executeTakeFirst();
  return Number(row?.id ?? 0);
}

/** How many of the owner's events came after `afterId`, counting no further than `cap`. */
export async function countEventsAfter(
  db: Executor,
  ownerId: string,
  afterId: number,
  cap: number,
): Promise<number> {
  const rows = await db
    .selectFrom('events')
    .select('id')
    .where('owner_id', '=', ownerId)
    .where('id', '>', afterId)
    .limit(cap)
    .execute();
  return rows.length;
}

export async function readEventsAfter(
  db: Executor,
  ownerId: string,
  afterId: number,
  limit: number,
): Promise<ChangeEvent[]> {
  const rows = await db
    .selectFrom('events')
    .select(['id', 'action', 'client_id'])
    .where('owner_id', '=', ownerId)
    .where('id', '>', afterId)
    .orderBy('id')
    .limit(limit)
    .execute();
  return rows.map((row) => ({ id: row.id, action: row.action, clientId: row.client_id }));
}

const parseJson = <T>(text: string | null): T | null =>
  text === null ? null : (JSON.parse(text) as T);

function toHistoryEntry(row: Selectable<EventsTable>): HistoryEntry {
  return {
    id: row.id,
    action: row.action,
    at: new Date(row.at).toISOString(),
    version: row.version,
    before: parseJson<ClientSnapshot>(row.before),
    after: parseJson<ClientSnapshot>(row.after),
    entry: parseJson<EntryDetail>(row.detail),
  };
}

/** A client's slice of the log, newest first; it outlives the client. */
export async function readClientHistory(
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

/**
 * Events read at a time for an export: one chunk of its text (`itemsPerChunk` in
 * transfer/export-stream.ts). A larger page outlives several turns of the event loop while it
 * is turned into text, and V8 then grows its young generation: with 1,000 the JSON export of
 * 1,000,000 clients took 106-159 MB more memory, with 100 about 42 MB.
 */
const exportBatch = 100;

/** The owner's whole log, oldest first, for their data export, read a page at a time. */
export async function* readAllEvents(db: Executor, ownerId: string) {
  let afterId = 0;
  for (;;) {
    const rows = await db
      .selectFrom('events')
      .selectAll()
      .where('owner_id', '=', ownerId)
      .where('id', '>', afterId)
      .orderBy('id')
      .limit(exportBatch)
      .execute();
    // One at a time as they are asked for: the export turns them into text a chunk per turn.
    for (const row of rows) yield { ...toHistoryEntry(row), clientId: row.client_id };
    const last = rows[rows.length - 1];
    if (!last || rows.length < exportBatch) return;
    afterId = last.id;
  }
}
