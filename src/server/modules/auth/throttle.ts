import { sql, type Kysely } from 'kysely';
import type { Database } from '../../db/database.ts';
import { AppError } from '../../errors.ts';

/** Failed logins count within this window; a blocked key is free again when it ends. */
export const throttleWindowMs = 15 * 60_000;

/**
 * Per account: slowed from the 3rd failure, refused from the 6th attempt. Per address: looser,
 * since many people can share one address (an office, a phone network).
 */
export const throttlePolicies = {
  account: { slowAfter: 3, blockAfter: 5 },
  address: { slowAfter: 10, blockAfter: 30 },
} as const;

type Kind = keyof typeof throttlePolicies;

const delayStepMs = 400;
const maxDelayMs = 2_000;

export function throttleKeys(emailKey: string, address: string): Record<Kind, string> {
  return { account: `account:${emailKey}`, address: `address:${address}` };
}

/** Refuses with 429 and Retry-After when any key has used up its failures in the window. */
export async function assertLoginAllowed(
  db: Kysely<Database>,
  keys: Record<Kind, string>,
  now: number,
): Promise<void> {
  const rows = await db
    .selectFrom('login_throttle')
    .selectAll()
    .where('key', 'in', Object.values(keys))
    .where('window_started_at', '>', now - throttleWindowMs)
    .execute();
  let retryAfterMs = 0;
  for (const kind of Object.keys(keys) as Kind[]) {
    const row = rows.find((candidate) => candidate.key === keys[kind]);
    if (row && row.failures >= throttlePolicies[kind].blockAfter) {
      retryAfterMs = Math.max(retryAfterMs, row.window_started_at + throttleWindowMs - now);
    }
  }
  if (retryAfterMs > 0) {
    const seconds = Math.max(1, Math.ceil(retryAfterMs / 1000));
    throw new AppError(
      429,
      'rate_limited',
      'Too many failed attempts. Please wait and try again.',
      {
        headers: { 'retry-after': String(seconds) },
      },
    );
  }
}

/** Counts one failure against each key (atomically) and returns how long to hold the answer back. */
export async function recordLoginFailure(
  db: Kysely<Database>,
  keys: Record<Kind, string>,
  now: number,
): Promise<number> {
  let delayMs = 0;
  const windowStart = now - throttleWindowMs;
  for (const kind of Object.keys(keys) as Kind[]) {
    const row = await db
      .insertInto('login_throttle')
      .values({ key: keys[kind], failures: 1, window_started_at: now })
      .onConflict((conflict) =>
        conflict.column('key').doUpdateSet({
          failures: sql<number>`case when login_throttle.window_started_at <= ${windowStart} then 1 else login_throttle.failures + 1 end`,
          window_started_at: sql<number>`case when login_throttle.window_started_at <= ${windowStart} then ${now} else login_throttle.window_started_at end`,
        }),
      )
      .returning('failures')
      .executeTakeFirstOrThrow();
    const over = row.failures - throttlePolicies[kind].slowAfter + 1;
    if (over > 0) delayMs = Math.max(delayMs, Math.min(maxDelayMs, over * delayStepMs));
  }
  return delayMs;
}

export async function clearLoginFailures(db: Kysely<Database>, key: string): Promise<void> {
  await db.deleteFrom('login_throttle').where('key', '=', key).execute();
}
