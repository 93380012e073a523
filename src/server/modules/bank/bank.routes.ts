import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod/mini';
import {
  bankBatchParams,
  bankConfirmBodySchema,
  bankConfirmedSchema,
  bankFileMaxBytes,
  bankLayoutsSchema,
  bankPreviewBodySchema,
  bankPreviewSchema,
  bankRuleListSchema,
  bankRuleParams,
  bankUndoneSchema,
} from '../../../shared/schemas/bank.ts';
import { notFound } from '../../errors.ts';
import { currentUser, requireUser } from '../auth/session.ts';
import { withParseSlot } from '../transfer/parse-slots.ts';
import { readStatement } from './bank-formats.ts';
import { confirmBankLines, forgetPayerRule, undoBankBatch } from './bank.commands.ts';
import { bankLayouts, listPayerRules, previewLines } from './bank.queries.ts';

// The file as base64 in JSON, the mapping beside it, and room for both.
export const bankPreviewBodyLimitBytes = Math.ceil(bankFileMaxBytes / 3) * 4 + 64 * 1024;
// 5,000 confirmed lines with their descriptions and splits.
export const bankConfirmBodyLimitBytes = 8 * 1024 * 1024;

/** Ids we issue are 22 base64url characters; anything else is simply not found. */
const checkedBatchId = (id: string) => {
  if (!/^[\w-]{22}$/.test(id)) throw notFound('Bank import not found');
  return id;
};

/** Payments from a bank statement: read and matched, confirmed once, undone as a batch. */
export const bankRoutes: FastifyPluginAsyncZod = async (app) => {
  app.addHook('onRequest', requireUser);

  app.post(
    '/bank/preview',
    {
      bodyLimit: bankPreviewBodyLimitBytes,
      schema: { body: bankPreviewBodySchema, response: { 200: bankPreviewSchema } },
    },
    async (request) => {
      const ownerId = currentUser(request).id;
      const { accountLabel, currency, format, mapping, file } = request.body;
      return withParseSlot(async () => {
        const parsed = readStatement(Buffer.from(file, 'base64'), format, mapping, currency);
        const { lines, clients } = await previewLines(
          app.db.kysely,
          ownerId,
          accountLabel,
          currency,
          parsed.lines,
        );
        return { lines, clients, skipped: parsed.skipped, twins: parsed.twins };
      });
    },
  );

  app.post(
    '/bank/confirm',
    {
      bodyLimit: bankConfirmBodyLimitBytes,
      schema: { body: bankConfirmBodySchema, response: { 200: bankConfirmedSchema } },
    },
    async (request) => app.writes.run(confirmBankLines, currentUser(request).id, request.body),
  );

  app.get('/bank/layouts', { schema: { response: { 200: bankLayoutsSchema } } }, async (request) =>
    bankLayouts(app.db.kysely, currentUser(request).id),
  );

  app.post(
    '/bank/batches/:id/undo',
    { schema: { params: bankBatchParams, response: { 200: bankUndoneSchema } } },
    async (request) =>
      app.writes.run(undoBankBatch, currentUser(request).id, checkedBatchId(request.params.id)),
  );

  // The payers the owner has confirmed, and forgetting one.
  app.get(
    '/bank/rules',
    { schema: { response: { 200: bankRuleListSchema } } },
    async (request) => ({
      rules: await listPayerRules(app.db.kysely, currentUser(request).id),
    }),
  );

  app.delete(
    '/bank/rules/:id',
    { schema: { params: bankRuleParams, response: { 204: z.null() } } },
    async (request, reply) => {
      const id = request.params.id;
      if (!/^[\w-]{22}$/.test(id)) throw notFound('Learned payer not found');
      await app.writes.run(forgetPayerRule, currentUser(request).id, id);
      return reply.status(204).send(null);
    },
  );
};
