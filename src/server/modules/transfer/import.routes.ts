import { setImmediate as nextTurn } from 'node:timers/promises';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  clientInputSchema,
  importBodySchema,
  importResultSchema,
  type ImportRowResult,
} from '../../../shared/schemas/clients.ts';
import { newId } from '../../ids.ts';
import { currentUser, requireUser } from '../auth/session.ts';
import {
  insertClients,
  ownerEmailKeys,
  toSnapshot,
  type ClientValues,
} from '../clients/clients.repository.ts';
import { appendEvents } from '../events/events.repository.ts';
import { readPreferences } from '../settings/settings.repository.ts';

/** Rows checked between two turns of the event loop, so other requests go on meanwhile. */
const rowsPerTurn = 500;

/** Room for 20,000 rows of JSON; every other route keeps the small default. */
const importBodyLimitBytes = 8 * 1024 * 1024;

export const importRoutes: FastifyPluginAsyncZod = async (app) => {
  const { kysely: db, dialect } = app.db;
  app.addHook('onRequest', requireUser);

  app.post(
    '/clients/import',
    {
      bodyLimit: importBodyLimitBytes,
      schema: { body: importBodySchema, response: { 200: importResultSchema } },
    },
    async (request) => {
      const ownerId = currentUser(request).id;
      const { rows, dryRun, skipDuplicates } = request.body;
      const [existing, { disableBalanceOnAdd }] = await Promise.all([
        ownerEmailKeys(db, ownerId),
        readPreferences(db, ownerId),
      ]);
      const seen = new Set<string>();
      const results: ImportRowResult[] = [];
      const accepted: ClientValues[] = [];
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
        accepted.push({
          ...parsed.data,
          balance: disableBalanceOnAdd ? 0 : (parsed.data.balance ?? 0),
        });
      }
      if (!dryRun && accepted.length > 0) {
        const now = Date.now();
        const clients = accepted.map((client) => ({ ...client, id: newId() }));
        await db.transaction().execute(async (trx) => {
          await insertClients(trx, ownerId, clients, now);
          await appendEvents(
            trx,
            dialect,
            ownerId,
            clients.map((client) => ({
              ownerId,
              clientId: client.id,
              action: 'imported' as const,
              at: now,
              version: 1,
              before: null,
              after: toSnapshot(client),
            })),
          );
        });
        await app.feed.publishSafely(ownerId);
      }
      return {
        results,
        imported: dryRun ? 0 : accepted.length,
        balancesZeroed: disableBalanceOnAdd,
      };
    },
  );
};
