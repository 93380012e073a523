import type { Kysely } from 'kysely';
import type { Database } from '../../db/database.ts';
import { AppError } from '../../errors.ts';
import {
  countThrottleAttempt,
  deleteThrottle,
  deleteThrottlesStartedBy,
  lowerThrottles,
} from './auth.repository.ts';
import { findThrottleInWindow } from './accounts.queries.ts';

const throttleWindowMs = 15 * 60_000;

// An address is looser than a pair, as many people share one; an account alone is never refused,
// or an attacker could lock its owner out: it is held back longer instead.
export const throttlePolicies = {
  pair: { slowAfter: 3, blockAfter: 5 },
  address: { slowAfter: 10, blockAfter: 30 },
  account: { slowAfter: 5, blockAfter: null },
} as const;

type Kind = keyof typeof throttlePolicies;

const delayStepMs = 400;
const maxLocalDelayMs = 2_000;
const maxAccountDelayMs = 10_000;

export function throttleKeys(emailKey: string, address: string): Record<Kind, string> {
  return {
    pair: `pair:${address}|${emailKey}`,
    address: `address:${address}`,
    account: `account:${emailKey}`,
  };
}

export function failureDelayMs(kind: Kind, failures: number): number {
  const over = failures - throttlePolicies[kind].slowAfter;
  if (over < 0) return 0;
  if (kind === 'account') return Math.min(maxAccountDelayMs, delayStepMs * 2 ** Math.min(over, 10));
  return Math.min(maxLocalDelayMs, delayStepMs * (over + 1));
}

/** Counted atomically before the password is checked, so simultaneous attempts cannot slip by. */
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

function countInWindow(db: Kysely<Database>, key: string, now: number, windowMs: number) {
  return countThrottleAttempt(db, key, now, now - windowMs);
}

const signUpWindowMs = 60 * 60_000;

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

// Enough for someone who lost the first message, too few to flood a mailbox or send spam.
const resetRequestLimits = { address: 10, email: 3 } as const;

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

export async function forgiveLoginAttempt(
  db: Kysely<Database>,
  keys: Record<Kind, string>,
): Promise<void> {
  await deleteThrottle(db, keys.pair);
  await lowerThrottles(db, [keys.address, keys.account]);
}

export async function deleteExpiredThrottles(db: Kysely<Database>, now: number): Promise<void> {
  const longestWindowMs = Math.max(throttleWindowMs, signUpWindowMs);
  await deleteThrottlesStartedBy(db, now - longestWindowMs);
}

// A client link's secret is 256 random bits: the limit is there to make a guesser's flood cost
// them, not to protect a weak secret. A person with a good link is never counted.
export const linkGuessLimit = throttlePolicies.address.blockAfter;

/** Refused (429) once the address has missed `linkGuessLimit` times in the window. */
export async function checkLinkGuesses(
  db: Kysely<Database>,
  address: string,
  now: number,
): Promise<void> {
  const row = await findThrottleInWindow(db, `link:${address}`, now - throttleWindowMs);
  if (row && row.failures >= linkGuessLimit)
    throw tooMany(
      'Too many attempts from your address. Please wait and try again.',
      row.window_started_at + throttleWindowMs - now,
    );
}

export async function countLinkGuess(
  db: Kysely<Database>,
  address: string,
  now: number,
): Promise<void> {
  await countInWindow(db, `link:${address}`, now, throttleWindowMs);
}
