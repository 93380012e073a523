import { currentBook } from '../books/current-book.ts';
import type { FastifyPluginAsync } from 'fastify';
import { apiRoutes } from '../../../shared/api-routes.ts';
import { handle } from '../../described-route.ts';
import { requireUser } from '../auth/session.ts';
import { takeJsonAsBytes } from './chunked-json-body.ts';
import { withParseSlot } from './parse-slots.ts';
import { notEmptyOnTakenIds, restoreFile } from './restore.commands.ts';

export const restoreBodyLimitBytes = 64 * 1024 * 1024;

export const restoreRoutes: FastifyPluginAsync = async (app) => {
  app.addHook('onRequest', requireUser);
  takeJsonAsBytes(app);

  handle(app, apiRoutes.restore, { bodyLimit: restoreBodyLimitBytes }, async (request) => {
    const bytes = request.body as Buffer;
    return withParseSlot(() =>
      notEmptyOnTakenIds(
        app.writes.run(restoreFile, currentBook(request), bytes, request.query.dryRun === 'true'),
      ),
    );
  });
};
