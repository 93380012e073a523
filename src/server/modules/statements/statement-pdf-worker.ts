// Laying out a PDF takes too long for the thread that answers requests (decision 019).
import { parentPort } from 'node:worker_threads';
import type { Locale } from '../../../shared/locales.ts';
import type { Statement } from '../../../shared/schemas/statement.ts';
import { statementPdf } from './statement-pdf.ts';

export type PdfRequest = { id: number; statement: Statement; locale: Locale };
export type PdfReply = { id: number; pdf: Uint8Array } | { id: number; error: string };

const port = parentPort;
if (!port) throw new Error('statement-pdf-worker.ts runs only as a worker thread');

port.on('message', (request: PdfRequest) => {
  statementPdf(request.statement, request.locale).then(
    (pdf) => port.postMessage({ id: request.id, pdf } satisfies PdfReply),
    (error: unknown) =>
      port.postMessage({
        id: request.id,
        error: error instanceof Error ? (error.stack ?? error.message) : String(error),
      } satisfies PdfReply),
  );
});
