import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import type { Config } from '../../config.ts';
import type { Database } from '../../db/database.ts';
import { deleteExpiredLinks } from './account.repository.ts';
import { deleteExpiredSessions } from './auth.repository.ts';
import { deleteExpiredThrottles } from './throttle.ts';

const sweepIntervalMs = 10 * 60_000;

export async function deleteExpired(
  db: Kysely<Database>,
  config: Pick<Config, 'sessionIdleMs' | 'sessionMaxMs'>,
  now: number,
): Promise<void> {
  await deleteExpiredSessions(db, {
    lastSeenBefore: now - config.sessionIdleMs,
    createdBefore: now - config.sessionMaxMs,
  });
  await deleteExpiredThrottles(db, now);
  await deleteExpiredLinks(db, now);
}

// Expired rows are refused when read but would pile up; every instance sweeps, harmlessly twice.
export function scheduleHousekeeping(app: FastifyInstance): void {
  const sweep = async () => {
    // Not before the database is migrated: the first sweep waits for it (`npm start`).
    if (app.db.health.starting !== null) return;
    await deleteExpired(app.db.kysely, app.config, Date.now()).catch((error: unknown) =>
      app.log.warn({ err: error }, 'could not delete expired sessions and login counts'),
    );
  };
  const timer = setInterval(() => void sweep(), sweepIntervalMs);
  timer.unref();
  app.addHook('onReady', async () => {
    void app.databaseReady.then(sweep, () => {});
  });
  app.addHook('onClose', async () => {
    clearInterval(timer);
  });
}
