// What other modules may read of the owner's log. Writing it is the write path's job alone
// (events.repository.ts).
import type { Kysely, Selectable } from 'kysely';
import type { ClientSnapshot } from '../../../shared/schemas/clients.ts';
import type {
  ChangeEvent,
  EntryDetail,
  ClosingDetail,
  HistoryEntry,
  MemberDetail,
} from '../../../shared/schemas/events.ts';
import type { ReminderDetail } from '../../../shared/schemas/reminders.ts';
import type { Database, Executor } from '../../db/database.ts';
import type { EventsTable } from './events.table.ts';

export async function hasClientHistory(db: Executor, bookId: string): Promise<boolean> {
  const row = await db
    .selectFrom('events')
    .select('id')
    .where('book_id', '=', bookId)
    // Neither a book's settings nor its members are a client's history.
    .where('action', 'not in', ['settings_changed', 'members_changed', 'lock_date_set'])
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}

export async function latestEventId(db: Kysely<Database>, bookId: string): Promise<number> {
  const row = await db
    .selectFrom('events')
    .select((eb) => eb.fn.max('id').as('id'))
    .where('book_id', '=', bookId)
    .executeTakeFirst();
  return Number(row?.id ?? 0);
}

export async function countEventsAfter(
  db: Executor,
  bookId: string,
  afterId: number,
  cap: number,
): Promise<number> {
  const rows = await db
    .selectFrom('events')
    .select('id')
    .where('book_id', '=', bookId)
    .where('id', '>', afterId)
    .limit(cap)
    .execute();
  return rows.length;
}

export async function readEventsAfter(
  db: Executor,
  bookId: string,
  afterId: number,
  limit: number,
): Promise<ChangeEvent[]> {
  const rows = await db
    .selectFrom('events')
    .select(['id', 'action', 'client_id'])
    .where('book_id', '=', bookId)
    .where('id', '>', afterId)
    .orderBy('id')
    .limit(limit)
    .execute();
  return rows.map((row) => ({ id: row.id, action: row.action, clientId: row.client_id }));
}

const parseJson = <T>(text: string | null): T | null =>
  text === null ? null : (JSON.parse(text) as T);

function toHistoryEntry(row: Selectable<EventsTable> & { by: string | null }): HistoryEntry {
  return {
    id: row.id,
    action: row.action,
    at: new Date(row.at).toISOString(),
    version: row.version,
    before: parseJson<ClientSnapshot>(row.before),
    after: parseJson<ClientSnapshot>(row.after),
    ...detailOf(row.detail),
    by: row.by,
  };
}

/** The detail column holds an entry, `{ reminder }` for a reminder's event, `{ member }` for one of the members. */
function detailOf(
  text: string | null,
): Pick<HistoryEntry, 'entry' | 'reminder' | 'member' | 'closing'> {
  const detail = parseJson<
    | EntryDetail
    | { reminder: ReminderDetail }
    | { member: MemberDetail }
    | { closing: ClosingDetail }
  >(text);
  if (detail && 'reminder' in detail) return { entry: null, reminder: detail.reminder };
  if (detail && 'member' in detail) return { entry: null, member: detail.member };
  if (detail && 'closing' in detail) return { entry: null, closing: detail.closing };
  return { entry: detail };
}

/** The events with the e-mail of who made each (the person may have left: then still named). */
function eventsWithActor(db: Executor) {
  return db
    .selectFrom('events')
    .leftJoin('users as actor', 'actor.id', 'events.actor_id')
    .selectAll('events')
    .select('actor.email as by');
}

export async function readClientHistory(
  db: Executor,
  bookId: string,
  clientId: string,
): Promise<HistoryEntry[]> {
  const rows = await eventsWithActor(db)
    .where('events.client_id', '=', clientId)
    .where('events.book_id', '=', bookId)
    .orderBy('events.id', 'desc')
    .execute();
  return rows.map(toHistoryEntry);
}

/** One chunk of export text: a larger page makes V8 grow its young generation (decision 016). */
const exportBatch = 100;

export async function* readAllEvents(db: Executor, bookId: string) {
  let afterId = 0;
  for (;;) {
    const rows = await eventsWithActor(db)
      .where('events.book_id', '=', bookId)
      .where('events.id', '>', afterId)
      .orderBy('events.id')
      .limit(exportBatch)
      .execute();
    for (const row of rows) yield { ...toHistoryEntry(row), clientId: row.client_id };
    const last = rows[rows.length - 1];
    if (!last || rows.length < exportBatch) return;
    afterId = last.id;
  }
}

/**
 * A page of the book's activity, newest first, read along (book, id) or, for one person,
 * (book, actor, id) (migration 0046): so the first page costs the same at any length of log.
 */
export async function readActivity(
  db: Executor,
  bookId: string,
  options: { actorId?: string | undefined; beforeId?: number | undefined; limit: number },
): Promise<(HistoryEntry & { clientId: string | null; actorId: string | null })[]> {
  let query = eventsWithActor(db).where('events.book_id', '=', bookId);
  if (options.actorId !== undefined) query = query.where('events.actor_id', '=', options.actorId);
  if (options.beforeId !== undefined) query = query.where('events.id', '<', options.beforeId);
  const rows = await query.orderBy('events.id', 'desc').limit(options.limit).execute();
  return rows.map((row) => ({
    ...toHistoryEntry(row),
    clientId: row.client_id,
    actorId: row.actor_id,
  }));
}
