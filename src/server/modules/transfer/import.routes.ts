import { setImmediate as nextTurn } from 'node:timers/promises';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  clientInputSchema,
  importBodySchema,
  importRowResultSchema,
  type ImportResult,
  type ImportRowResult,
} from '../../../shared/schemas/clients.ts';
import type { ClientInput } from '../../../shared/schemas/clients.ts';
import { currentUser, requireUser } from '../auth/session.ts';
import { importClients } from '../clients/clients.commands.ts';
import { ownerEmailKeys } from '../clients/clients.queries.ts';
import { readPreferences } from '../settings/settings.queries.ts';

/** Rows checked between two turns of the event loop, so other requests go on meanwhile. */
const rowsPerTurn = 500;

/** Room for 20,000 rows of JSON; every other route keeps the small default. */
const importBodyLimitBytes = 8 * 1024 * 1024;

export const importRoutes: FastifyPluginAsyncZod = async (app) => {
  const { kysely: db } = app.db;
  app.addHook('onRequest', requireUser);

  app.post(
    '/clients/import',
    {
      bodyLimit: importBodyLimitBytes,
      // No response schema: the answer is checked against importRowResultSchema a slice at a
      // time as it is made (below), then sent already serialized, as the client list's are.
      schema: { body: importBodySchema },
    },
    async (request, reply) => {
      const ownerId = currentUser(request).id;
      const { rows, dryRun, skipDuplicates } = request.body;
      const [existing, { disableBalanceOnAdd }] = await Promise.all([
        ownerEmailKeys(db, ownerId),
        readPreferences(db, ownerId),
      ]);
      const seen = new Set<string>();
      const results: ImportRowResult[] = [];
      const accepted: ClientInput[] = [];
      for (const [row, raw] of rows.entries()) {
        if (row > 0 && row % rowsPerTurn === 0) await nextTurn();
        // The same schema as the Add Client form and route: one rule set everywhere.
        const parsed = clientInputSchema.safeParse(raw);
        if (!parsed.success) {
          const errors: Record<string, string> = {};
          for (const issue of parsed.error.issues)
            errors[String(issue.path[0] ?? 'row')] ??= issue.message;
          results.push({ row, status: 'invalid', errors });
          continue;
        }
        const key = parsed.data.email.toLowerCase();
        const duplicateOf = existing.has(key) ? 'existing' : seen.has(key) ? 'file' : undefined;
        seen.add(key);
        if (duplicateOf) {
          results.push({ row, status: 'duplicate', duplicateOf });
          if (skipDuplicates) continue;
        } else {
          results.push({ row, status: 'ok' });
        }
        accepted.push(parsed.data);
      }
      // The preference as the write finds it decides; the preview reports it as read above.
      const balancesZeroed =
        !dryRun && accepted.length > 0
          ? (await importClients(app.writes, ownerId, accepted)).balancesZeroed
          : disableBalanceOnAdd;
      // The route's serializer would check all 20,000 results in one piece, holding the event
      // loop for 12-30 ms; checked here a slice at a time, the answer is sent as text.
      for (let start = 0; start < results.length; start += rowsPerTurn) {
        if (start > 0) await nextTurn();
        for (const result of results.slice(start, start + rowsPerTurn))
          importRowResultSchema.parse(result);
      }
      const answer: ImportResult = {
        results,
        imported: dryRun ? 0 : accepted.length,
        balancesZeroed,
      };
      const body = JSON.stringify(answer);
      return reply.type('application/json; charset=utf-8').send(body);
    },
  );
};
