import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { importBodySchema } from '../../../shared/schemas/clients.ts';
import { currentUser, requireUser } from '../auth/session.ts';
import { takeJsonAsBytes } from './chunked-json-body.ts';
import { importFile } from './import.commands.ts';
import { withParseSlot } from './parse-slots.ts';

const importBodyLimitBytes = 8 * 1024 * 1024;

export const importRoutes: FastifyPluginAsyncZod = async (app) => {
  app.addHook('onRequest', requireUser);
  takeJsonAsBytes(app);

  app.post(
    '/clients/import',
    {
      bodyLimit: importBodyLimitBytes,
      // For the documentation only: the command checks the body (import.commands.ts).
      schema: { body: importBodySchema },
      validatorCompiler: () => (bytes: unknown) => ({ value: bytes }),
      // No response schema: the rows are checked a slice at a time (import-rows.ts).
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
