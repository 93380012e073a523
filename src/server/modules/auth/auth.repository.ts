import { sql } from 'kysely';
import type { Executor } from '../../db/database.ts';
import { emailKey } from './accounts.queries.ts';

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
  bookId: string | null = null,
): Promise<void> {
  await db
    .insertInto('sessions')
    .values({
      token_hash: tokenHash,
      user_id: userId,
      created_at: now,
      last_seen_at: now,
      user_agent: userAgent,
      book_id: bookId,
    })
    .execute();
  await db.updateTable('users').set({ last_seen_at: now }).where('id', '=', userId).execute();
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
