import { sql, type Kysely } from 'kysely';
import type { Database } from '../../db/database.ts';
import { AppError } from '../../errors.ts';

/** Failed logins count within this window; a blocked key is free again when it ends. */
export const throttleWindowMs = 15 * 60_000;

/**
 * Three counts per login. One account from one address (`pair`): slowed from the 3rd failure,
 * refused from the 6th attempt, so guessing from one place stops, yet someone guessing elsewhere
 * never locks the owner out of their own address. One address, any account: looser, since many
 * people can share an address (an office, a phone network). One account from anywhere: never
 * refused, or an attacker could lock the owner out; each failure is held back longer instead.
 */
export const throttlePolicies = {
  pair: { slowAfter: 3, blockAfter: 5 },
  address: { slowAfter: 10, blockAfter: 30 },
  account: { slowAfter: 5, blockAfter: null },
} as const;

type Kind = keyof typeof throttlePolicies;

const delayStepMs = 400;
/** Per pair and per address, failures are refused soon enough: a short hold-back will do. */
const maxLocalDelayMs = 2_000;
/** Per account, nothing is ever refused: the hold-back doubles instead, up to this. */
const maxAccountDelayMs = 10_000;

export function throttleKeys(emailKey: string, address: string): Record<Kind, string> {
  return {
    pair: `pair:${address}|${emailKey}`,
    address: `address:${address}`,
    account: `account:${emailKey}`,
  };
}

/**
 * How long to hold back a failure at this count: from `slowAfter` on, 400 ms more per failure
 * (up to 2 s) for a pair or an address, doubling (up to 10 s) for an account.
 */
export function failureDelayMs(kind: Kind, failures: number): number {
  const over = failures - throttlePolicies[kind].slowAfter;
  if (over < 0) return 0;
  if (kind === 'account') return Math.min(maxAccountDelayMs, delayStepMs * 2 ** Math.min(over, 10));
  return Math.min(maxLocalDelayMs, delayStepMs * (over + 1));
}

/**
 * Counts this attempt against each key before any password is checked, atomically, so attempts
 * sent all at once cannot slip past the limit together. Refuses with 429 and Retry-After once a
 * key is over its limit; otherwise returns how long a failure should be held back (the right
 * password is never held back).
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
    const { blockAfter } = throttlePolicies[kind];
    if (blockAfter !== null && row.failures > blockAfter) {
      retryAfterMs = Math.max(retryAfterMs, row.window_started_at + throttleWindowMs - now);
    }
    delayMs = Math.max(delayMs, failureDelayMs(kind, row.failures));
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

/**
 * Password reset e-mails asked for within an hour, per address and per e-mail: enough for someone
 * who lost the first message, too few to flood a mailbox or to use this server to send spam.
 */
export const resetRequestLimits = { address: 10, email: 3 } as const;

/** Counts a request for a reset e-mail before anything is looked up; 429 past either limit. */
export async function countResetRequest(
  db: Kysely<Database>,
  address: string,
  emailKey: string,
  now: number,
): Promise<void> {
  const byAddress = await countInWindow(db, `reset:address:${address}`, now, signUpWindowMs);
  const byEmail = await countInWindow(db, `reset:email:${emailKey}`, now, signUpWindowMs);
  const retryAfterMs = Math.max(
    byAddress.failures > resetRequestLimits.address
      ? byAddress.window_started_at + signUpWindowMs - now
      : 0,
    byEmail.failures > resetRequestLimits.email
      ? byEmail.window_started_at + signUpWindowMs - now
      : 0,
  );
  if (retryAfterMs > 0)
    throw tooMany('Too many password reset requests. Please try again later.', retryAfterMs);
}

/** A successful login: this account from this address starts afresh; the others are not charged for it. */
export async function forgiveLoginAttempt(
  db: Kysely<Database>,
  keys: Record<Kind, string>,
): Promise<void> {
  await db.deleteFrom('login_throttle').where('key', '=', keys.pair).execute();
  await db
    .updateTable('login_throttle')
    .set({ failures: sql<number>`case when failures > 0 then failures - 1 else 0 end` })
    .where('key', 'in', [keys.address, keys.account])
    .execute();
}

/** Counts whose window has ended say nothing any more (sign-ups and reset e-mails have the longest). */
export async function deleteExpiredThrottles(db: Kysely<Database>, now: number): Promise<void> {
  const longestWindowMs = Math.max(throttleWindowMs, signUpWindowMs);
  await db
    .deleteFrom('login_throttle')
    .where('window_started_at', '<=', now - longestWindowMs)
    .execute();
}
