import { sql, type Kysely, type Transaction } from 'kysely';
import type { Database } from '../../db/database.ts';
import type { SessionUser } from '../../../shared/schemas/auth.ts';
import type { SessionWithUser, UsersTable } from './auth.table.ts';

type Executor = Kysely<Database> | Transaction<Database>;

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

export async function insertUser(
  db: Executor,
  user: { id: string; email: string; passwordHash: string; isAdmin: boolean; now: number },
): Promise<void> {
  await db
    .insertInto('users')
    .values({
      id: user.id,
      email: user.email.trim(),
      email_key: emailKey(user.email),
      password_hash: user.passwordHash,
      is_admin: user.isAdmin ? 1 : 0,
      created_at: user.now,
    })
    .execute();
}

export async function updatePasswordHash(
  db: Executor,
  userId: string,
  passwordHash: string,
): Promise<void> {
  await db
    .updateTable('users')
    .set({ password_hash: passwordHash })
    .where('id', '=', userId)
    .execute();
}

export async function insertSession(
  db: Executor,
  tokenHash: string,
  userId: string,
  now: number,
  userAgent: string | null = null,
): Promise<void> {
  await db
    .insertInto('sessions')
    .values({
      token_hash: tokenHash,
      user_id: userId,
      created_at: now,
      last_seen_at: now,
      user_agent: userAgent,
    })
    .execute();
  await db.updateTable('users').set({ last_seen_at: now }).where('id', '=', userId).execute();
}

export async function findSessionWithUser(
  db: Kysely<Database>,
  tokenHash: string,
): Promise<SessionWithUser | undefined> {
  return db
    .selectFrom('sessions')
    .innerJoin('users', 'users.id', 'sessions.user_id')
    .select([
      'sessions.token_hash',
      'sessions.created_at',
      'sessions.last_seen_at',
      'users.id',
      'users.email',
      'users.is_admin',
      'users.disabled_at',
    ])
    .where('sessions.token_hash', '=', tokenHash)
    .executeTakeFirst();
}

export async function findLiveSessions(
  db: Kysely<Database>,
  tokenHashes: readonly string[],
  limits: { lastSeenSince: number; createdSince: number },
): Promise<{ token_hash: string; user_id: string }[]> {
  return (
    db
      .selectFrom('sessions')
      .innerJoin('users', 'users.id', 'sessions.user_id')
      .select(['sessions.token_hash', 'sessions.user_id'])
      .where('sessions.token_hash', 'in', tokenHashes)
      // A disabled account's sessions are deleted when it is disabled; this also ends any left.
      .where('users.disabled_at', 'is', null)
      .where('sessions.last_seen_at', '>=', limits.lastSeenSince)
      .where('sessions.created_at', '>=', limits.createdSince)
      .execute()
  );
}

export async function touchSession(
  db: Executor,
  tokenHash: string,
  userId: string,
  now: number,
): Promise<void> {
  await db
    .updateTable('sessions')
    .set({ last_seen_at: now })
    .where('token_hash', '=', tokenHash)
    .execute();
  await db.updateTable('users').set({ last_seen_at: now }).where('id', '=', userId).execute();
}

export async function deleteSession(db: Executor, tokenHash: string): Promise<void> {
  await db.deleteFrom('sessions').where('token_hash', '=', tokenHash).execute();
}

export async function deleteExpiredSessions(
  db: Executor,
  limits: { lastSeenBefore: number; createdBefore: number },
): Promise<void> {
  await db
    .deleteFrom('sessions')
    .where((eb) =>
      eb.or([
        eb('last_seen_at', '<', limits.lastSeenBefore),
        eb('created_at', '<', limits.createdBefore),
      ]),
    )
    .execute();
}

/**
 * Counts one attempt under `key` in one statement, so simultaneous attempts cannot slip by: a
 * window that started at or before `windowStart` is over, and the count starts again at 1.
 */
export async function countThrottleAttempt(
  db: Executor,
  key: string,
  now: number,
  windowStart: number,
) {
  return db
    .insertInto('login_throttle')
    .values({ key, failures: 1, window_started_at: now })
    .onConflict((conflict) =>
      conflict.column('key').doUpdateSet({
        failures: sql<number>`case when login_throttle.window_started_at <= ${windowStart} then 1 else login_throttle.failures + 1 end`,
        window_started_at: sql<number>`case when login_throttle.window_started_at <= ${windowStart} then ${now} else login_throttle.window_started_at end`,
      }),
    )
    .returning(['failures', 'window_started_at'])
    .executeTakeFirstOrThrow();
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

export async function deleteThrottle(db: Executor, key: string): Promise<void> {
  await db.deleteFrom('login_throttle').where('key', '=', key).execute();
}

/** One failure fewer under each key, never below zero. */
export async function lowerThrottles(db: Executor, keys: string[]): Promise<void> {
  await db
    .updateTable('login_throttle')
    .set({ failures: sql<number>`case when failures > 0 then failures - 1 else 0 end` })
    .where('key', 'in', keys)
    .execute();
}

export async function deleteThrottlesStartedBy(db: Executor, windowStart: number): Promise<void> {
  await db.deleteFrom('login_throttle').where('window_started_at', '<=', windowStart).execute();
}
