import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { importBodySchema } from '../../../shared/schemas/clients.ts';
import { currentUser, requireUser } from '../auth/session.ts';
import { takeJsonAsBytes } from './chunked-json-body.ts';
import { importFile } from './import.commands.ts';
import { withParseSlot } from './parse-slots.ts';

/** Room for 20,000 rows of JSON; every other route keeps the small default. */
const importBodyLimitBytes = 8 * 1024 * 1024;

export const importRoutes: FastifyPluginAsyncZod = async (app) => {
  app.addHook('onRequest', requireUser);
  // An import's body (up to 8 MiB) is handed to its command as bytes: the command parses and
  // checks it where it runs (on SQLite, the writer's thread), not on the thread that answers.
  takeJsonAsBytes(app);

  app.post(
    '/clients/import',
    {
      bodyLimit: importBodyLimitBytes,
      // The schema describes the body for the API's documentation; the command checks it
      // (import.commands.ts), so the route lets the bytes through unchecked.
      schema: { body: importBodySchema },
      validatorCompiler: () => (bytes: unknown) => ({ value: bytes }),
      // No response schema: the answer's rows are checked against importRowResultSchema and
      // turned into text a slice at a time (import-rows.ts), then sent as they are.
    },
    async (request, reply) => {
      const bytes = request.body as unknown as Buffer;
      const ownerId = currentUser(request).id;
      const { resultsJson, ...rest } = await withParseSlot(() =>
        app.writes.run(importFile, ownerId, bytes),
      );
      const body = `{"results":${resultsJson},${JSON.stringify(rest).slice(1)}`;
      return reply.type('application/json; charset=utf-8').send(body);
    },
  );
};
