import { sql, type Kysely, type Transaction } from 'kysely';
import type { ClientSnapshot } from '../../../shared/schemas/clients.ts';
import type { ChangeEvent, EventAction } from '../../../shared/schemas/events.ts';
import { compiledQuery } from '../../db/compiled-query.ts';
import type { Database, Dialect } from '../../db/database.ts';

type Executor = Kysely<Database> | Transaction<Database>;

/** Rows per INSERT: well inside both databases' limits on bound parameters. */
const insertBatch = 500;

export interface NewEvent {
  ownerId: string;
  clientId: string | null;
  action: EventAction;
  at: number;
  version: number;
  before: ClientSnapshot | null;
  after: ClientSnapshot | null;
}

/**
 * On PostgreSQL an owner's writers take turns until commit, so the owner's event ids are
 * committed in increasing order and a reader resuming after id N can never miss a smaller id
 * committed later. (SQLite has one writer at a time already.)
 */
async function lockOwnerLog(
  trx: Transaction<Database>,
  dialect: Dialect,
  ownerId: string,
): Promise<void> {
  if (dialect === 'postgres') {
    await sql`select pg_advisory_xact_lock(hashtextextended(${ownerId}, 0))`.execute(trx);
  }
}

const toRow = (event: NewEvent) => ({
  owner_id: event.ownerId,
  client_id: event.clientId,
  action: event.action,
  at: event.at,
  version: event.version,
  before: event.before && JSON.stringify(event.before),
  after: event.after && JSON.stringify(event.after),
});

/** Appends to the owner's log inside the caller's transaction. */
export async function appendEvent(
  trx: Transaction<Database>,
  dialect: Dialect,
  event: NewEvent,
): Promise<void> {
  await lockOwnerLog(trx, dialect, event.ownerId);
  await trx.insertInto('events').values(toRow(event)).execute();
}

/** Appends many events of one owner (an import) inside the caller's transaction. */
export async function appendEvents(
  trx: Transaction<Database>,
  dialect: Dialect,
  ownerId: string,
  events: NewEvent[],
): Promise<void> {
  await lockOwnerLog(trx, dialect, ownerId);
  for (let start = 0; start < events.length; start += insertBatch) {
    await trx
      .insertInto('events')
      .values(events.slice(start, start + insertBatch).map(toRow))
      .execute();
  }
}

/** Every read of the client list starts with this (its cache stamp), so it is compiled once. */
const latestEventIdQuery = compiledQuery((db, ownerId: string) =>
  db
    .selectFrom('events')
    .select((eb) => eb.fn.max('id').as('id'))
    .where('owner_id', '=', ownerId),
);

export async function latestEventId(db: Kysely<Database>, ownerId: string): Promise<number> {
  const { rows } = await latestEventIdQuery(db, ownerId);
  return Number(rows[0]?.id ?? 0);
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

/** Events read at a time by readAllEvents: a page's memory, whatever the log's length. */
const exportBatch = 1000;

/** The owner's whole log, oldest first, for their data export, read a page at a time. */
export async function* readAllEvents(db: Executor, ownerId: string) {
  let afterId = 0;
  for (;;) {
    const rows = await db
      .selectFrom('events')
      .select(['id', 'client_id', 'action', 'at', 'version', 'before', 'after'])
      .where('owner_id', '=', ownerId)
      .where('id', '>', afterId)
      .orderBy('id')
      .limit(exportBatch)
      .execute();
    yield* rows.map((row) => ({
      id: row.id,
      clientId: row.client_id,
      action: row.action,
      at: new Date(row.at).toISOString(),
      version: row.version,
      before: row.before === null ? null : (JSON.parse(row.before) as unknown),
      after: row.after === null ? null : (JSON.parse(row.after) as unknown),
    }));
    const last = rows[rows.length - 1];
    if (!last || rows.length < exportBatch) return;
    afterId = last.id;
  }
}
