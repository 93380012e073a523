import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { restoreQuerySchema, restoreSummarySchema } from '../../../shared/schemas/restore.ts';
import { currentUser, requireUser } from '../auth/session.ts';
import { previewRestore, restoreAccount } from '../clients/restore.commands.ts';
import { readExportFile } from './restore-file.ts';

/**
 * Room for a large account's whole export (about 100,000 history events with their before and
 * after); every other route keeps the small default.
 */
export const restoreBodyLimitBytes = 64 * 1024 * 1024;

export const restoreRoutes: FastifyPluginAsyncZod = async (app) => {
  app.addHook('onRequest', requireUser);

  // The body is the export file as downloaded; it is checked here, with every problem named.
  app.post(
    '/restore',
    {
      bodyLimit: restoreBodyLimitBytes,
      schema: { querystring: restoreQuerySchema, response: { 200: restoreSummarySchema } },
    },
    async (request) => {
      const ownerId = currentUser(request).id;
      const plan = readExportFile(request.body);
      return request.query.dryRun === 'true'
        ? previewRestore(app.db.kysely, ownerId, plan)
        : restoreAccount(app.writes, ownerId, plan);
    },
  );
};
