// Laying out a PDF takes too long for the thread that answers requests (decision 019), and the
// memory it takes is not given back while the server lives (decision 037): it runs in a child
// process of its own, whose memory goes back to the system when it ends.
import type { Locale } from '../../../shared/locales.ts';
import type { Statement } from '../../../shared/schemas/statement.ts';
import { statementPdf } from './statement-pdf.ts';

export type PdfRequest = { id: number; statement: Statement; locale: Locale };
export type PdfReply = { id: number; pdf: Uint8Array } | { id: number; error: string };

const send = process.send?.bind(process);
if (!send) throw new Error('statement-pdf-worker.ts runs only as a child process with a channel');

/** A server that is gone takes no answer: this process ends with it. */
const reply = (message: PdfReply) =>
  send(message, (error: Error | null) => {
    if (error) process.exit(0);
  });

process.on('message', (request: PdfRequest) => {
  statementPdf(request.statement, request.locale).then(
    (pdf) => reply({ id: request.id, pdf }),
    (error: unknown) =>
      reply({
        id: request.id,
        error: error instanceof Error ? (error.stack ?? error.message) : String(error),
      }),
  );
});
// The server's end (or its channel closing) ends this process too.
process.on('disconnect', () => process.exit(0));
