import { statfs } from 'node:fs/promises';
import path from 'node:path';
import { sql } from 'kysely';
import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { databaseFault } from '../../db/errors.ts';

/** Below this much free space next to the SQLite file, writes are about to fail: say so early. */
const minFreeBytes = 16 * 1024 * 1024;
const diskCheckIntervalMs = 1000;

const healthResponse = z.object({
  status: z.enum(['ok', 'degraded', 'unavailable']),
  database: z.enum(['sqlite', 'postgres']),
  problem: z.optional(z.enum(['database_unreachable', 'database_stopped', 'disk_full'])),
  message: z.optional(z.string()),
});

export const healthRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db } = app;

  // The free space is read at most once a second, and callers meanwhile share that reading: a
  // monitor needs no fresher answer, and a statfs per request was about a quarter of this
  // route's cost under load.
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

  async function sqliteDiskFull(): Promise<boolean> {
    if (db.health.diskFull) return true;
    if (db.config.dialect !== 'sqlite' || db.config.file === ':memory:') return false;
    return lowOnDisk(db.config.file);
  }

  app.get(
    '/health',
    { schema: { security: [], response: { 200: healthResponse, 503: healthResponse } } },
    async (request, reply) => {
      // A crashed SQLite thread fails every query sent to it, though the others still answer.
      if (db.health.stopped) {
        return reply.status(503).send({
          status: 'unavailable',
          database: db.dialect,
          problem: 'database_stopped',
          message: `The database stopped working (${db.health.stopped}); the server must be restarted`,
        });
      }
      try {
        await sql`select 1`.execute(db.kysely);
      } catch (error) {
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
    },
  );
};
