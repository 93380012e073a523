import { statfs } from 'node:fs/promises';
import path from 'node:path';
import { sql } from 'kysely';
import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { databaseFault } from '../../db/errors.ts';

/** Below this much free space next to the SQLite file, writes are about to fail: say so early. */
const minFreeBytes = 16 * 1024 * 1024;

const healthResponse = z.object({
  status: z.enum(['ok', 'degraded', 'unavailable']),
  database: z.enum(['sqlite', 'postgres']),
  problem: z.optional(z.enum(['database_unreachable', 'database_stopped', 'disk_full'])),
  message: z.optional(z.string()),
});

export const healthRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db } = app;

  async function sqliteDiskFull(): Promise<boolean> {
    if (db.health.diskFull) return true;
    if (db.config.dialect !== 'sqlite' || db.config.file === ':memory:') return false;
    try {
      const disk = await statfs(path.dirname(path.resolve(db.config.file)));
      return disk.bavail * disk.bsize < minFreeBytes;
    } catch {
      return false;
    }
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
