import { currentBook } from '../books/current-book.ts';
import type { FastifyPluginAsync } from 'fastify';
import { apiRoutes } from '../../../shared/api-routes.ts';
import { handle } from '../../described-route.ts';
import { bankFileMaxBytes } from '../../../shared/schemas/bank.ts';
import { checkedId } from '../../ids.ts';
import { WorkerPool } from '../../worker-pool.ts';
import { requireUser } from '../auth/session.ts';
import { takeJsonAsBytes } from '../transfer/chunked-json-body.ts';
import { transferParsesAtOnce, withParseSlot } from '../transfer/parse-slots.ts';
import type { PreviewBody, PreviewRead } from './bank-preview-worker.ts';
import { fileProblem } from './bank-statement.ts';
import {
  batchNotFound,
  confirmBankLines,
  forgetPayerRule,
  payerRuleNotFound,
  undoBankBatch,
} from './bank.commands.ts';
import { bankLayouts, listPayerRules, previewLines } from './bank.queries.ts';

// The file as base64 in JSON, the mapping beside it, and room for both.
export const bankPreviewBodyLimitBytes = Math.ceil(bankFileMaxBytes / 3) * 4 + 64 * 1024;
// The tests and `npm run dev` run the .ts files; the bundle has the worker beside main.js.
const previewWorkerFile = new URL(
  import.meta.url.endsWith('.ts') ? './bank-preview-worker.ts' : './bank-preview-worker.js',
  import.meta.url,
);
// What reading one statement may take, the worker's code included: a hostile file that would
// take more ends its worker, not the server (decision 036 has the figures).
const previewReaderLimits = { maxOldGenerationSizeMb: 128, maxYoungGenerationSizeMb: 8 };
// 5,000 confirmed lines with their descriptions and splits.
export const bankConfirmBodyLimitBytes = 8 * 1024 * 1024;

/** Payments from a bank statement: read and matched, confirmed once, undone as a batch. */
export const bankRoutes: FastifyPluginAsync = async (app) => {
  app.addHook('onRequest', requireUser);

  // The body is read in a worker thread (decision 036): here it is only taken in, as bytes.
  const previewReaders = new WorkerPool<PreviewBody, PreviewRead>(
    previewWorkerFile,
    'the bank statement could not be read',
    {
      workers: transferParsesAtOnce,
      resourceLimits: previewReaderLimits,
      outOfMemory: () => fileProblem('The file is too large.'),
    },
  );
  app.addHook('onClose', () => previewReaders.close());
  const previewRoute: FastifyPluginAsync = async (scope) => {
    // Its nesting too is checked in the worker: it took this thread 36 ms of each 4 MB file.
    takeJsonAsBytes(scope, { shapeCheckedWhereParsed: true });
    handle(
      scope,
      apiRoutes.bankPreview,
      {
        bodyLimit: bankPreviewBodyLimitBytes,
        // The body's schema is for the documentation only: the worker checks the body
        // (bank-preview-worker.ts).
        validatorCompiler: () => (bytes: unknown) => ({ value: bytes }),
      },
      async (request) => {
        const bookId = currentBook(request).id;
        // Bytes, or nothing when no body was sent: the worker refuses anything but JSON.
        const body: unknown = request.body;
        return withParseSlot(async () => {
          // Handed over, not copied, when the bytes have their memory to themselves.
          const owned =
            body instanceof Uint8Array &&
            body.buffer instanceof ArrayBuffer &&
            body.byteOffset === 0 &&
            body.byteLength === body.buffer.byteLength;
          const { accountLabel, currency, statement } = await previewReaders.run(
            bookId,
            body,
            owned ? [body.buffer] : [],
          );
          const { lines, clients } = await previewLines(
            app.db.kysely,
            bookId,
            accountLabel,
            currency,
            statement.lines,
          );
          return { lines, clients, skipped: statement.skipped, twins: statement.twins };
        });
      },
    );
  };
  await app.register(previewRoute);

  handle(app, apiRoutes.bankConfirm, { bodyLimit: bankConfirmBodyLimitBytes }, async (request) =>
    app.writes.run(confirmBankLines, currentBook(request), request.body),
  );

  handle(app, apiRoutes.bankLayouts, async (request) =>
    bankLayouts(app.db.kysely, currentBook(request).id),
  );

  handle(app, apiRoutes.bankUndo, async (request) =>
    app.writes.run(
      undoBankBatch,
      currentBook(request),
      checkedId(request.params.id, batchNotFound),
    ),
  );

  // The payers the owner has confirmed, and forgetting one.
  handle(app, apiRoutes.bankRules, async (request) => ({
    rules: await listPayerRules(app.db.kysely, currentBook(request).id),
  }));

  handle(app, apiRoutes.forgetBankRule, async (request, reply) => {
    const id = checkedId(request.params.id, payerRuleNotFound);
    await app.writes.run(forgetPayerRule, currentBook(request), id);
    return reply.status(204).send(null);
  });
};
