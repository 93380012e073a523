import { AppError } from '../../errors.ts';

/**
 * Imports and restores run at once on this instance, whoever asks. Each parses and checks up to
 * 64 MiB, holding several times that in memory while it does (and on SQLite the writer's thread):
 * two fit on a small server, more of them at once crashed one out of memory.
 */
export const transferParsesAtOnce = 2;

/** Seconds a refused import or restore is told to wait: about what a large one takes. */
const retryAfterSeconds = 5;

let running = 0;

/**
 * Runs `work` (an import's or a restore's command) if fewer than `transferParsesAtOnce` run on
 * this instance; otherwise refuses at once with 429 and Retry-After rather than queueing a body
 * that has already arrived whole.
 */
export async function withParseSlot<T>(work: () => Promise<T>): Promise<T> {
  if (running >= transferParsesAtOnce)
    throw new AppError(
      429,
      'rate_limited',
      'Too many imports and restores are running on this server; try again in a moment',
      { headers: { 'retry-after': String(retryAfterSeconds) } },
    );
  running += 1;
  try {
    return await work();
  } finally {
    running -= 1;
  }
}
