import { sql, type Transaction } from 'kysely';
import type { ClientSnapshot } from '../../../shared/schemas/clients.ts';
import type { EntryDetail, EventAction } from '../../../shared/schemas/events.ts';
import type { ReminderDetail } from '../../../shared/schemas/reminders.ts';
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
  /** A restored history keeps its times. */
  at?: number;
}

/** Ids commit in order: a reader resuming after id N never misses a smaller one committed later. */
export async function lockOwnerLog(
  trx: Transaction<Database>,
  dialect: Dialect,
  ownerId: string,
): Promise<void> {
  if (dialect === 'postgres') {
    await sql`select pg_advisory_xact_lock(hashtextextended(${ownerId}, 0))`.execute(trx);
  }
}

/** Taken before any other lock, as the deletion does, so the two cannot deadlock. */
export async function holdOwner(
  trx: Transaction<Database>,
  dialect: Dialect,
  ownerId: string,
): Promise<boolean> {
  const owner = trx.selectFrom('users').select('id').where('id', '=', ownerId);
  const row = await (dialect === 'postgres' ? owner.forKeyShare() : owner).executeTakeFirst();
  return row !== undefined;
}

export async function lockOwnerForRemoval(
  trx: Transaction<Database>,
  dialect: Dialect,
  ownerId: string,
): Promise<void> {
  if (dialect === 'postgres') {
    await trx.selectFrom('users').select('id').where('id', '=', ownerId).forUpdate().execute();
  }
}

export const toEventRow = (ownerId: string, at: number, event: NewEvent) => ({
  owner_id: ownerId,
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
      : null,
});

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
