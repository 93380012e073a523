import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { restoreQuerySchema, restoreSummarySchema } from '../../../shared/schemas/restore.ts';
import { currentUser, requireUser } from '../auth/session.ts';
import { takeJsonAsBytes } from './chunked-json-body.ts';
import { withParseSlot } from './parse-slots.ts';
import { notEmptyOnTakenIds, restoreFile } from './restore.commands.ts';

/**
 * Room for a large account's whole export (about 100,000 history events with their before and
 * after); every other route keeps the small default.
 */
export const restoreBodyLimitBytes = 64 * 1024 * 1024;

export const restoreRoutes: FastifyPluginAsyncZod = async (app) => {
  app.addHook('onRequest', requireUser);
  // The export file is handed to the restore's command as bytes: the command parses and checks
  // it where it runs (on SQLite, the writer's thread), not on the thread that answers.
  takeJsonAsBytes(app);

  // The body is the export file as downloaded; it is checked there, with every problem named.
  app.post(
    '/restore',
    {
      bodyLimit: restoreBodyLimitBytes,
      schema: { querystring: restoreQuerySchema, response: { 200: restoreSummarySchema } },
    },
    async (request) => {
      const bytes = request.body as Buffer;
      const ownerId = currentUser(request).id;
      return withParseSlot(() =>
        notEmptyOnTakenIds(
          app.writes.run(restoreFile, ownerId, bytes, request.query.dryRun === 'true'),
        ),
      );
    },
  );
};
