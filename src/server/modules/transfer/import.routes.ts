import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { importBodySchema, type ImportResult } from '../../../shared/schemas/clients.ts';
import { currentUser, requireUser } from '../auth/session.ts';
import { importClients } from '../clients/clients.commands.ts';
import { ownerEmailKeys } from '../clients/clients.queries.ts';
import { readPreferences } from '../settings/settings.queries.ts';
import { parseJsonInPieces } from './chunked-json-body.ts';
import { checkImportRows, importResultsJson } from './import-rows.ts';

/** Room for 20,000 rows of JSON; every other route keeps the small default. */
const importBodyLimitBytes = 8 * 1024 * 1024;

export const importRoutes: FastifyPluginAsyncZod = async (app) => {
  const { kysely: db } = app.db;
  app.addHook('onRequest', requireUser);
  // An import's body (up to 8 MiB) is parsed a piece at a time, not in one long turn.
  app.addContentTypeParser('application/json', parseJsonInPieces);

  app.post(
    '/clients/import',
    {
      bodyLimit: importBodyLimitBytes,
      // No response schema: the answer's rows are checked against importRowResultSchema and
      // turned into text a slice at a time (below), then sent as they are.
      schema: { body: importBodySchema },
    },
    async (request, reply) => {
      const ownerId = currentUser(request).id;
      const { rows, dryRun, skipDuplicates } = request.body;
      const [existing, { disableBalanceOnAdd }] = await Promise.all([
        ownerEmailKeys(db, ownerId),
        readPreferences(db, ownerId),
      ]);
      const { results, accepted } = await checkImportRows(rows, { existing, skipDuplicates });
      // The preference as the write finds it decides; the preview reports it as read above.
      const balancesZeroed =
        !dryRun && accepted.length > 0
          ? (await importClients(app.writes, ownerId, accepted)).balancesZeroed
          : disableBalanceOnAdd;
      const rest: Omit<ImportResult, 'results'> = {
        imported: dryRun ? 0 : accepted.length,
        balancesZeroed,
      };
      const body = `{"results":${await importResultsJson(results)},${JSON.stringify(rest).slice(1)}`;
      return reply.type('application/json; charset=utf-8').send(body);
    },
  );
};
