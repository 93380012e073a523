import type { ClientLinksTable } from './client-links.table.ts';
import type { Executor } from '../../db/database.ts';

/** Revokes the client's current link, if any; true when there was one. */
export async function revokeCurrentLink(
  db: Executor,
  bookId: string,
  clientId: string,
  now: number,
): Promise<boolean> {
  const result = await db
    .updateTable('client_links')
    .set({ revoked_at: now })
    .where('book_id', '=', bookId)
    .where('client_id', '=', clientId)
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

export async function insertLink(db: Executor, row: ClientLinksTable): Promise<void> {
  await db.insertInto('client_links').values(row).execute();
}

/** At most once a minute per link, whichever instance serves the page. */
export async function touchLastOpened(
  db: Executor,
  id: string,
  now: number,
  everyMs: number,
): Promise<void> {
  await db
    .updateTable('client_links')
    .set({ last_opened_at: now })
    .where('id', '=', id)
    .where((where) =>
      where.or([where('last_opened_at', 'is', null), where('last_opened_at', '<=', now - everyMs)]),
    )
    .execute();
}

/** True when this call claimed the turn to record an "opened" event (one per `everyMs`). */
export async function claimOpenedEvent(
  db: Executor,
  id: string,
  now: number,
  everyMs: number,
): Promise<boolean> {
  const result = await db
    .updateTable('client_links')
    .set({ opened_recorded_at: now })
    .where('id', '=', id)
    .where('revoked_at', 'is', null)
    .where((where) =>
      where.or([
        where('opened_recorded_at', 'is', null),
        where('opened_recorded_at', '<=', now - everyMs),
      ]),
    )
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

export async function revokeLinks(
  db: Executor,
  bookId: string,
  ids: readonly string[],
  now: number,
): Promise<void> {
  await db
    .updateTable('client_links')
    .set({ revoked_at: now })
    .where('book_id', '=', bookId)
    .where('id', 'in', ids)
    .where('revoked_at', 'is', null)
    .execute();
}
