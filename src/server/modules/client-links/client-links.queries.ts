// What this module's routes and commands (and later the reminders) read of the client links.
// Changes go through client-links.commands.ts, with the SQL of client-links.repository.ts.
import type { Selectable } from 'kysely';
import type { Executor } from '../../db/database.ts';
import type { ClientLinksTable } from './client-links.table.ts';

export type ClientLinkRow = Selectable<ClientLinksTable>;

/** The client's link that is not revoked (expired or not). */
export async function findCurrentLink(
  db: Executor,
  bookId: string,
  clientId: string,
): Promise<ClientLinkRow | undefined> {
  return db
    .selectFrom('client_links')
    .selectAll()
    .where('book_id', '=', bookId)
    .where('client_id', '=', clientId)
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
}

/** A disabled account's links stop at once, as its tokens do. */
export async function findLinkBySecretHash(
  db: Executor,
  secretHash: string,
): Promise<ClientLinkRow | undefined> {
  return db
    .selectFrom('client_links')
    .innerJoin('users', 'users.id', 'client_links.book_id')
    .selectAll('client_links')
    .where('client_links.secret_hash', '=', secretHash)
    .where('users.disabled_at', 'is', null)
    .executeTakeFirst();
}

/** The owner's live links made since `since`, newest first, with their client's name. */
export async function listRecentLinks(db: Executor, bookId: string, since: number, now: number) {
  return db
    .selectFrom('client_links')
    .innerJoin('clients', (join) =>
      join
        .onRef('clients.id', '=', 'client_links.client_id')
        .onRef('clients.book_id', '=', 'client_links.book_id'),
    )
    .select([
      'client_links.id',
      'client_links.client_id',
      'client_links.created_at',
      'client_links.expires_at',
      'client_links.last_opened_at',
      'client_links.made_by',
      'client_links.made_by_id',
      'client_links.made_by_label',
      'client_links.made_by_started_at',
      'clients.first_name',
      'clients.last_name',
    ])
    .where('client_links.book_id', '=', bookId)
    .where('client_links.created_at', '>=', since)
    .where('client_links.revoked_at', 'is', null)
    .where((where) =>
      where.or([
        where('client_links.expires_at', 'is', null),
        where('client_links.expires_at', '>', now),
      ]),
    )
    .orderBy('client_links.created_at', 'desc')
    .orderBy('client_links.id')
    .execute();
}

/** The owner's links among `ids` (another owner's are not found), revoked or not. */
export async function findLinksOfOwner(
  db: Executor,
  bookId: string,
  ids: readonly string[],
): Promise<Pick<ClientLinkRow, 'id' | 'client_id' | 'revoked_at'>[]> {
  return db
    .selectFrom('client_links')
    .select(['id', 'client_id', 'revoked_at'])
    .where('book_id', '=', bookId)
    .where('id', 'in', ids)
    .execute();
}
