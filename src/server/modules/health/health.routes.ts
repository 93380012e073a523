import { statfs } from 'node:fs/promises';
import path from 'node:path';
import { sql } from 'kysely';
import type { FastifyPluginAsync } from 'fastify';
import { apiRoutes } from '../../../shared/api-routes.ts';
import { handle } from '../../described-route.ts';
import { databaseFault } from '../../db/errors.ts';

const minFreeBytes = 16 * 1024 * 1024;
const diskCheckIntervalMs = 1000;
// A load balancer gives a check a few seconds; a stopped PostgreSQL would hold it 15 s.
const healthDatabaseWaitMs = 1500;

type Probe = { failed: false } | { failed: true; error: unknown };

export const healthRoutes: FastifyPluginAsync = async (app) => {
  const { db } = app;

  // Read at most once a second and shared: a monitor needs no fresher answer, and statfs costs.
  let diskReading: Promise<boolean> | null = null;
  let diskReadAt = -Infinity;
  function lowOnDisk(file: string): Promise<boolean> {
    const now = performance.now();
    if (diskReading === null || now - diskReadAt >= diskCheckIntervalMs) {
      diskReadAt = now;
      diskReading = statfs(path.dirname(path.resolve(file))).then(
        (disk) => disk.bavail * disk.bsize < minFreeBytes,
        () => false,
      );
    }
    return diskReading;
  }

  // Shared, so checks against a database that does not answer do not take a connection each.
  let probe: Promise<Probe> | null = null;
  function probeDatabase(): Promise<Probe> {
    probe ??= sql`select 1`
      .execute(db.kysely)
      .then(
        (): Probe => ({ failed: false }),
        (error: unknown): Probe => ({ failed: true, error }),
      )
      .finally(() => {
        probe = null;
      });
    return probe;
  }

  async function probeWithin(ms: number): Promise<Probe | 'late'> {
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<'late'>((resolve) => {
      timer = setTimeout(resolve, ms, 'late');
    });
    try {
      return await Promise.race([probeDatabase(), late]);
    } finally {
      clearTimeout(timer);
    }
  }

  async function sqliteDiskFull(): Promise<boolean> {
    if (db.health.diskFull) return true;
    if (db.config.dialect !== 'sqlite' || db.config.file === ':memory:') return false;
    return lowOnDisk(db.config.file);
  }

  handle(app, apiRoutes.health, { security: [] }, async (request, reply) => {
    // A crashed SQLite thread fails every query sent to it, though the others still answer.
    if (db.health.stopped) {
      return reply.status(503).send({
        status: 'unavailable',
        database: db.dialect,
        problem: 'database_stopped',
        message: `The database stopped working (${db.health.stopped}); the server must be restarted`,
      });
    }
    // Started before the database answered (`npm start`): the server keeps trying by itself.
    if (db.health.starting === 'connecting') {
      return reply.status(503).send({
        status: 'unavailable',
        database: db.dialect,
        problem: 'database_unreachable',
        message:
          'The database is not reachable yet; the server keeps trying and serves once it answers',
      });
    }
    if (db.health.starting === 'migrating') {
      return reply.status(503).send({
        status: 'unavailable',
        database: db.dialect,
        problem: 'database_migrating',
        message: 'The database is being brought up to date; the server serves once it is',
      });
    }
    const probed = await probeWithin(healthDatabaseWaitMs);
    if (probed === 'late') {
      request.log.warn('health check: the database did not answer in time');
      return reply.status(503).send({
        status: 'unavailable',
        database: db.dialect,
        problem: 'database_timeout',
        message: `The database did not answer within ${healthDatabaseWaitMs / 1000} s`,
      });
    }
    if (probed.failed) {
      const { error } = probed;
      if (databaseFault(error) !== 'unavailable') throw error;
      request.log.warn({ err: error }, 'health check: the database is unreachable');
      return reply.status(503).send({
        status: 'unavailable',
        database: db.dialect,
        problem: 'database_unreachable',
        message: 'The database is unreachable',
      });
    }
    if (await sqliteDiskFull()) {
      return reply.status(503).send({
        status: 'degraded',
        database: db.dialect,
        problem: 'disk_full',
        message: "The server's disk is full",
      });
    }
    return { status: 'ok' as const, database: db.dialect };
  });
};
