import { sql, type Transaction } from 'kysely';
import type { ClientSnapshot } from '../../../shared/schemas/clients.ts';
import type {
  ClosingDetail,
  EntryDetail,
  EventAction,
  MemberDetail,
} from '../../../shared/schemas/events.ts';
import type { ReminderDetail } from '../../../shared/schemas/reminders.ts';
import type { Actor } from '../../db/actor.ts';
import type { Database, Dialect } from '../../db/database.ts';

/** Well inside both databases' limits on bound parameters. */
const insertBatch = 500;

export interface NewEvent {
  clientId: string | null;
  action: EventAction;
  version: number;
  before: ClientSnapshot | null;
  after: ClientSnapshot | null;
  entry?: EntryDetail | null;
  reminder?: ReminderDetail;
  /** Who joined, was invited, changed role or left (`members_changed`). */
  member?: MemberDetail;
  /** A new lock date (`lock_date_set`). */
  closing?: ClosingDetail;
  /** A restored history keeps its times, */
  at?: number;
  /** and who made each change where they are a member here (else null), not the restorer. */
  actorId?: string | null;
}

/** Ids commit in order: a reader resuming after id N never misses a smaller one committed later. */
export async function lockOwnerLog(
  trx: Transaction<Database>,
  dialect: Dialect,
  bookId: string,
): Promise<void> {
  if (dialect === 'postgres') {
    await sql`select pg_advisory_xact_lock(hashtextextended(${bookId}, 0))`.execute(trx);
  }
}

/** Taken before any other lock, as the deletion does, so the two cannot deadlock. */
export async function holdBook(
  trx: Transaction<Database>,
  dialect: Dialect,
  bookId: string,
): Promise<{ lockDate: string | null } | null> {
  // The day the book is closed up to comes with it: no change pays a round trip more for it.
  const book = trx.selectFrom('books').select('lock_date').where('id', '=', bookId);
  const row = await (dialect === 'postgres' ? book.forKeyShare() : book).executeTakeFirst();
  return row ? { lockDate: row.lock_date } : null;
}

export async function lockBookForRemoval(
  trx: Transaction<Database>,
  dialect: Dialect,
  bookId: string,
): Promise<void> {
  if (dialect === 'postgres') {
    await trx.selectFrom('books').select('id').where('id', '=', bookId).forUpdate().execute();
  }
}

export const toEventRow = (
  bookId: string,
  at: number,
  event: NewEvent,
  actor: Actor | null = null,
) => ({
  book_id: bookId,
  actor_id: event.actorId !== undefined ? event.actorId : (actor?.userId ?? null),
  actor_token_id: event.actorId !== undefined ? null : (actor?.tokenId ?? null),
  client_id: event.clientId,
  action: event.action,
  at: event.at ?? at,
  version: event.version,
  before: event.before && JSON.stringify(event.before),
  after: event.after && JSON.stringify(event.after),
  detail: event.entry
    ? JSON.stringify(event.entry)
    : event.reminder
      ? JSON.stringify({ reminder: event.reminder })
      : event.member
        ? JSON.stringify({ member: event.member })
        : event.closing
          ? JSON.stringify({ closing: event.closing })
          : null,
});

export async function insertEvents(
  trx: Transaction<Database>,
  bookId: string,
  at: number,
  events: readonly NewEvent[],
  actor: Actor | null = null,
): Promise<void> {
  for (let start = 0; start < events.length; start += insertBatch) {
    await trx
      .insertInto('events')
      .values(
        events
          .slice(start, start + insertBatch)
          .map((event) => toEventRow(bookId, at, event, actor)),
      )
      .execute();
  }
}
