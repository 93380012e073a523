import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { restoreQuerySchema, restoreSummarySchema } from '../../../shared/schemas/restore.ts';
import { currentUser, requireUser } from '../auth/session.ts';
import { takeJsonAsBytes } from './chunked-json-body.ts';
import { withParseSlot } from './parse-slots.ts';
import { notEmptyOnTakenIds, restoreFile } from './restore.commands.ts';

export const restoreBodyLimitBytes = 64 * 1024 * 1024;

export const restoreRoutes: FastifyPluginAsyncZod = async (app) => {
  app.addHook('onRequest', requireUser);
  takeJsonAsBytes(app);

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
