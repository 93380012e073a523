// What the auth module's routes, commands, sessions and throttle read of accounts, sessions and
// attempts. Changes go through accounts.commands.ts (and session.ts, throttle.ts), with the SQL
// of auth.repository.ts and account.repository.ts.
import type { Kysely } from 'kysely';
import type { Database, Executor } from '../../db/database.ts';
import type { SessionUser } from '../../../shared/schemas/auth.ts';
import type { SessionWithUser, UsersTable } from './auth.table.ts';

export function emailKey(email: string): string {
  return email.trim().normalize('NFC').toLowerCase();
}

export function toSessionUser(row: Pick<UsersTable, 'id' | 'email' | 'is_admin'>): SessionUser {
  return { id: row.id, email: row.email, isAdmin: row.is_admin === 1 };
}

export async function findUserByEmail(db: Executor, email: string) {
  return db
    .selectFrom('users')
    .selectAll()
    .where('email_key', '=', emailKey(email))
    .executeTakeFirst();
}

export async function hasAnyUser(db: Executor): Promise<boolean> {
  const row = await db.selectFrom('users').select('id').limit(1).executeTakeFirst();
  return row !== undefined;
}

export async function findSessionWithUser(
  db: Kysely<Database>,
  tokenHash: string,
): Promise<SessionWithUser | undefined> {
  return (
    db
      .selectFrom('sessions')
      .innerJoin('users', 'users.id', 'sessions.user_id')
      // The person's role in the session's book, in the same round trip (null: not a member).
      .leftJoin('book_members', (join) =>
        join
          .onRef('book_members.book_id', '=', 'sessions.book_id')
          .onRef('book_members.user_id', '=', 'sessions.user_id'),
      )
      .select([
        'book_members.role',
        'sessions.token_hash',
        'sessions.created_at',
        'sessions.last_seen_at',
        'sessions.book_id',
        'users.id',
        'users.email',
        'users.is_admin',
        'users.disabled_at',
      ])
      .where('sessions.token_hash', '=', tokenHash)
      .executeTakeFirst()
  );
}

export async function findLiveSessions(
  db: Kysely<Database>,
  tokenHashes: readonly string[],
  limits: { lastSeenSince: number; createdSince: number },
): Promise<{ token_hash: string; book_id: string }[]> {
  return (
    db
      .selectFrom('sessions')
      .innerJoin('users', 'users.id', 'sessions.user_id')
      // A stream is of the session's book, while its person is a member of it.
      .innerJoin('book_members', (join) =>
        join
          .onRef('book_members.book_id', '=', 'sessions.book_id')
          .onRef('book_members.user_id', '=', 'sessions.user_id'),
      )
      .select(['sessions.token_hash', 'book_members.book_id'])
      .where('sessions.token_hash', 'in', tokenHashes)
      // A disabled account's sessions are deleted when it is disabled; this also ends any left.
      .where('users.disabled_at', 'is', null)
      .where('sessions.last_seen_at', '>=', limits.lastSeenSince)
      .where('sessions.created_at', '>=', limits.createdSince)
      .execute()
  );
}

/** The count under `key`, if its window started after `windowStart`. */
export async function findThrottleInWindow(db: Executor, key: string, windowStart: number) {
  return db
    .selectFrom('login_throttle')
    .select(['failures', 'window_started_at'])
    .where('key', '=', key)
    .where('window_started_at', '>', windowStart)
    .executeTakeFirst();
}

export async function findUserById(db: Executor, userId: string) {
  return db.selectFrom('users').selectAll().where('id', '=', userId).executeTakeFirst();
}

export async function listSessionsOfUser(db: Executor, userId: string) {
  return db
    .selectFrom('sessions')
    .select(['token_hash', 'created_at', 'last_seen_at', 'user_agent'])
    .where('user_id', '=', userId)
    .orderBy('last_seen_at', 'desc')
    .execute();
}

export async function countUsers(db: Executor): Promise<number> {
  const row = await db
    .selectFrom('users')
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

export async function listUsers(db: Executor) {
  return db
    .selectFrom('users')
    .select((eb) => [
      'users.id',
      'users.email',
      'users.is_admin',
      'users.created_at',
      'users.last_seen_at',
      'users.disabled_at',
      // The clients of the books the account owns.
      eb
        .selectFrom('clients')
        .innerJoin('book_members', 'book_members.book_id', 'clients.book_id')
        .select((inner) => inner.fn.countAll<number>().as('count'))
        .whereRef('book_members.user_id', '=', 'users.id')
        .where('book_members.role', '=', 'owner')
        .as('clients'),
    ])
    .orderBy('users.created_at')
    .orderBy('users.id')
    .execute();
}
