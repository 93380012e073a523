import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  bankBatchParams,
  bankConfirmBodySchema,
  bankConfirmedSchema,
  bankFileMaxBytes,
  bankLayoutsSchema,
  bankPreviewBodySchema,
  bankPreviewSchema,
  bankUndoneSchema,
} from '../../../shared/schemas/bank.ts';
import { notFound } from '../../errors.ts';
import { currentUser, requireUser } from '../auth/session.ts';
import { withParseSlot } from '../transfer/parse-slots.ts';
import { parseStatement } from './bank-statement.ts';
import { confirmBankLines, undoBankBatch } from './bank.commands.ts';
import { bankLayouts, previewLines } from './bank.queries.ts';

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
      const { accountLabel, currency, mapping, file } = request.body;
      return withParseSlot(async () => {
        const parsed = parseStatement(Buffer.from(file, 'base64'), mapping, currency);
        const lines = await previewLines(
          app.db.kysely,
          ownerId,
          accountLabel,
          currency,
          parsed.lines,
        );
        return { lines, skipped: parsed.skipped };
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
};
