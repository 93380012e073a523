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

/**
 * Counts this attempt against each key before any password is checked, atomically, so attempts
 * sent all at once cannot slip past the limit together. Refuses with 429 and Retry-After once a
 * key is over its limit; otherwise returns how long a failure should be held back.
 */
export async function countLoginAttempt(
  db: Kysely<Database>,
  keys: Record<Kind, string>,
  now: number,
): Promise<{ delayMs: number }> {
  let delayMs = 0;
  let retryAfterMs = 0;
  for (const kind of Object.keys(keys) as Kind[]) {
    const row = await countInWindow(db, keys[kind], now, throttleWindowMs);
    const policy = throttlePolicies[kind];
    if (row.failures > policy.blockAfter) {
      retryAfterMs = Math.max(retryAfterMs, row.window_started_at + throttleWindowMs - now);
    }
    const over = row.failures - policy.slowAfter + 1;
    if (over > 0) delayMs = Math.max(delayMs, Math.min(maxDelayMs, over * delayStepMs));
  }
  if (retryAfterMs > 0)
    throw tooMany('Too many failed attempts. Please wait and try again.', retryAfterMs);
  return { delayMs };
}

function tooMany(message: string, retryAfterMs: number): AppError {
  const seconds = Math.max(1, Math.ceil(retryAfterMs / 1000));
  return new AppError(429, 'rate_limited', message, {
    headers: { 'retry-after': String(seconds) },
  });
}

/** Adds one to a key's count in its window (a new window once the old one is over), atomically. */
async function countInWindow(db: Kysely<Database>, key: string, now: number, windowMs: number) {
  const windowStart = now - windowMs;
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

const signUpWindowMs = 60 * 60_000;

/** Counts a sign-up attempt of this address before any work is done; 429 past the hourly limit. */
export async function countSignUp(
  db: Kysely<Database>,
  address: string,
  perHour: number,
  now: number,
): Promise<void> {
  if (perHour === 0) return;
  const row = await countInWindow(db, `join:${address}`, now, signUpWindowMs);
  if (row.failures > perHour) {
    throw tooMany(
      'Too many sign-ups from your address. Please try again later.',
      row.window_started_at + signUpWindowMs - now,
    );
  }
}

/** A successful login: the account starts afresh, and the address is not charged for it. */
export async function forgiveLoginAttempt(
  db: Kysely<Database>,
  keys: Record<Kind, string>,
): Promise<void> {
  await db.deleteFrom('login_throttle').where('key', '=', keys.account).execute();
  await db
    .updateTable('login_throttle')
    .set({ failures: sql<number>`case when failures > 0 then failures - 1 else 0 end` })
    .where('key', '=', keys.address)
    .execute();
}
