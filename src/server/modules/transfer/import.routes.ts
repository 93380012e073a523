import { currentBook } from '../books/current-book.ts';
import type { FastifyPluginAsync } from 'fastify';
import { apiRoutes } from '../../../shared/api-routes.ts';
import { handle } from '../../described-route.ts';
import { requireUser } from '../auth/session.ts';
import { takeJsonAsBytes } from './chunked-json-body.ts';
import { importFile } from './import.commands.ts';
import { importInSlices } from './import-slices.ts';
import { withParseSlot } from './parse-slots.ts';

const importBodyLimitBytes = 8 * 1024 * 1024;

export const importRoutes: FastifyPluginAsync = async (app) => {
  app.addHook('onRequest', requireUser);
  takeJsonAsBytes(app);

  handle(
    app,
    apiRoutes.importClients,
    {
      bodyLimit: importBodyLimitBytes,
      // The body's schema is for the documentation only: the command checks the body
      // (import.commands.ts).
      validatorCompiler: () => (bytes: unknown) => ({ value: bytes }),
    },
    async (request, reply) => {
      const bytes = request.body as unknown as Buffer;
      const bookId = currentBook(request).id;
      // The slot is held while the slices are written too: their rows and events are in memory.
      const { resultsJson, ...rest } = await withParseSlot(async () => {
        const { toStage, ...answer } = await app.writes.run(
          importFile,
          currentBook(request),
          bytes,
        );
        if (toStage) await importInSlices(app, bookId, toStage);
        return answer;
      });
      const body = `{"results":${resultsJson},${JSON.stringify(rest).slice(1)}`;
      return reply.type('application/json; charset=utf-8').send(body);
    },
  );
};
