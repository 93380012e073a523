import type { Kysely } from 'kysely';
import type { Database } from '../../db/database.ts';
import type { AccessTokensTable } from './tokens.table.ts';

type TokenRow = Omit<AccessTokensTable, 'token_hash' | 'user_id' | 'book_id'>;

/**
 * On PostgreSQL the book's row is held first, as every change and a book's removal hold it (books,
 * then users): the insert's own foreign-key checks take users first, and beside an account's
 * deletion, which holds the book and then deletes the user, the two waited on each other.
 */
export async function insertToken(
  db: Kysely<Database>,
  row: AccessTokensTable,
  holdBookFirst: boolean,
): Promise<void> {
  if (!holdBookFirst) {
    await db.insertInto('access_tokens').values(row).execute();
    return;
  }
  await db.transaction().execute(async (trx) => {
    await trx
      .selectFrom('books')
      .select('id')
      .where('id', '=', row.book_id)
      .forKeyShare()
      .execute();
    await trx.insertInto('access_tokens').values(row).execute();
  });
}

export async function countTokens(db: Kysely<Database>, userId: string): Promise<number> {
  const row = await db
    .selectFrom('access_tokens')
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .where('user_id', '=', userId)
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

export async function listTokens(db: Kysely<Database>, userId: string): Promise<TokenRow[]> {
  return db
    .selectFrom('access_tokens')
    .select(['id', 'name', 'read_only', 'created_at', 'last_used_at', 'expires_at'])
    .where('user_id', '=', userId)
    .orderBy('created_at', 'desc')
    .orderBy('id')
    .execute();
}

export async function deleteToken(
  db: Kysely<Database>,
  userId: string,
  id: string,
): Promise<string | null> {
  const row = await db
    .deleteFrom('access_tokens')
    .where('id', '=', id)
    .where('user_id', '=', userId)
    .returning('book_id')
    .executeTakeFirst();
  return row?.book_id ?? null;
}

export async function deleteTokensOfUser(db: Kysely<Database>, userId: string): Promise<string[]> {
  const rows = await db
    .deleteFrom('access_tokens')
    .where('user_id', '=', userId)
    .returning('id')
    .execute();
  return rows.map((row) => row.id);
}

export async function findTokenWithUser(db: Kysely<Database>, tokenHash: string) {
  return (
    db
      .selectFrom('access_tokens')
      .innerJoin('users', 'users.id', 'access_tokens.user_id')
      // A token acts in its one book, as its maker while they are a member of it.
      .innerJoin('book_members', (join) =>
        join
          .onRef('book_members.book_id', '=', 'access_tokens.book_id')
          .onRef('book_members.user_id', '=', 'access_tokens.user_id'),
      )
      .select([
        'access_tokens.id as token_id',
        'access_tokens.book_id',
        'book_members.role',
        'access_tokens.read_only',
        'access_tokens.name',
        'access_tokens.created_at',
        'access_tokens.last_used_at',
        'access_tokens.expires_at',
        'users.id',
        'users.email',
        'users.is_admin',
      ])
      .where('access_tokens.token_hash', '=', tokenHash)
      // A disabled account's tokens stop at once, and work again when it is enabled.
      .where('users.disabled_at', 'is', null)
      .executeTakeFirst()
  );
}

export async function findLiveTokens(
  db: Kysely<Database>,
  ids: readonly string[],
  now: number,
): Promise<{ id: string; book_id: string }[]> {
  if (ids.length === 0) return [];
  return db
    .selectFrom('access_tokens')
    .innerJoin('users', 'users.id', 'access_tokens.user_id')
    .innerJoin('book_members', (join) =>
      join
        .onRef('book_members.book_id', '=', 'access_tokens.book_id')
        .onRef('book_members.user_id', '=', 'access_tokens.user_id'),
    )
    .select(['access_tokens.id', 'access_tokens.book_id'])
    .where('access_tokens.id', 'in', ids)
    .where('users.disabled_at', 'is', null)
    .where((eb) =>
      eb.or([eb('access_tokens.expires_at', 'is', null), eb('access_tokens.expires_at', '>', now)]),
    )
    .execute();
}

export async function touchToken(db: Kysely<Database>, id: string, now: number): Promise<void> {
  await db.updateTable('access_tokens').set({ last_used_at: now }).where('id', '=', id).execute();
}
