import { AppError } from '../../errors.ts';

// Each holds several times its body in memory: more than two at once ran a small server out of
// memory (decision 018).
export const transferParsesAtOnce = 2;

const retryAfterSeconds = 5;

let running = 0;

/** Refuses with 429 rather than queueing a body that has already arrived whole. */
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
