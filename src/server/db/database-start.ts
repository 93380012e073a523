import { setTimeout as sleep } from 'node:timers/promises';
import { sql } from 'kysely';
import type { Db } from './database.ts';
import { databaseFault } from './errors.ts';
import { migrateToLatest } from './migrate.ts';

interface StartLog {
  info(details: object, message: string): void;
  warn(details: object, message: string): void;
}

const firstRetryMs = 1000;
const lastRetryMs = 30_000;

/** 1 s, then twice as long each time, never more than 30 s. */
function retryDelayMs(failedAttempts: number): number {
  return Math.min(firstRetryMs * 2 ** (failedAttempts - 1), lastRetryMs);
}

function whenAborted(signal: AbortSignal): Promise<never> {
  return new Promise((_, reject) => {
    const fail = () =>
      reject(signal.reason instanceof Error ? signal.reason : new Error('the start was abandoned'));
    if (signal.aborted) fail();
    else signal.addEventListener('abort', fail, { once: true });
  });
}

/**
 * Reaches the database and runs the migrations, as many times as it takes while PostgreSQL does
 * not answer: `db.health.starting` says where it is, for health and the requests that wait. Each
 * attempt ends within the pool's connect timeout or a statement's; any other failure (a
 * migration's own error, a refused password) is for the operator and ends the wait.
 */
export async function migrateWhenReachable(
  db: Db,
  log: StartLog,
  signal: AbortSignal,
): Promise<void> {
  const aborted = whenAborted(signal);
  // Never heard when nothing aborts; awaited through the races below when something does.
  aborted.catch(() => {});
  for (let attempt = 1; ; attempt += 1) {
    try {
      db.health.starting = 'connecting';
      await Promise.race([sql`select 1`.execute(db.kysely), aborted]);
      db.health.starting = 'migrating';
      await Promise.race([migrateToLatest(db.kysely), aborted]);
      if (attempt > 1) log.info({ attempt }, 'the database answers: migrations done');
      return;
    } catch (error) {
      if (signal.aborted || db.dialect !== 'postgres' || databaseFault(error) !== 'unavailable')
        throw error;
      const waitMs = retryDelayMs(attempt);
      const what =
        db.health.starting === 'connecting'
          ? 'the database is not reachable yet'
          : 'the database stopped answering during the migrations';
      // Back to waiting for it: a lost connection is as unreachable as one never made.
      db.health.starting = 'connecting';
      log.warn(
        { err: error, attempt, retryInSeconds: waitMs / 1000 },
        `${what} (attempt ${attempt}): trying again in ${waitMs / 1000} s`,
      );
      await sleep(waitMs, undefined, { signal });
    }
  }
}
