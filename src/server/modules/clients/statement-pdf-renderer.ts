import { Worker } from 'node:worker_threads';
import type { Locale } from '../../../shared/locales.ts';
import type { Statement } from '../../../shared/schemas/statement.ts';
import type { PdfReply, PdfRequest } from './statement-pdf-worker.ts';

// The tests and `npm run dev` run the .ts files; the bundle has the worker beside main.js.
const workerFile = new URL(
  import.meta.url.endsWith('.ts') ? './statement-pdf-worker.ts' : './statement-pdf-worker.js',
  import.meta.url,
);

/**
 * Makes statement PDFs in one worker thread, started at the first PDF and kept for the next
 * ones (it keeps the fonts it has read). PDFs are made one after another there, so a burst of
 * them waits its turn instead of slowing every other request down. A worker that fails is
 * replaced at the next PDF; what it was making is answered with an error.
 */
export class PdfRenderer {
  #worker: Worker | null = null;
  #nextId = 1;
  readonly #waiting = new Map<
    number,
    { resolve: (pdf: Buffer) => void; reject: (error: Error) => void }
  >();

  /** The statement as a PDF in a language (the owner's, as the request asks for it). */
  render(statement: Statement, locale: Locale): Promise<Buffer> {
    const worker = this.#start();
    const id = this.#nextId++;
    return new Promise((resolve, reject) => {
      this.#waiting.set(id, { resolve, reject });
      worker.postMessage({ id, statement, locale } satisfies PdfRequest);
    });
  }

  async close(): Promise<void> {
    const worker = this.#worker;
    this.#worker = null;
    if (worker) await worker.terminate();
    this.#failAll(new Error('the PDF renderer was closed'));
  }

  #start(): Worker {
    if (this.#worker) return this.#worker;
    const worker = new Worker(workerFile);
    // An idle renderer never keeps the process alive.
    worker.unref();
    worker.on('message', (reply: PdfReply) => {
      const waiting = this.#waiting.get(reply.id);
      if (!waiting) return;
      this.#waiting.delete(reply.id);
      if ('pdf' in reply) waiting.resolve(Buffer.from(reply.pdf));
      else waiting.reject(new Error(`the statement PDF could not be made: ${reply.error}`));
    });
    const stopped = (error: Error) => {
      if (this.#worker === worker) this.#worker = null;
      this.#failAll(error);
    };
    worker.on('error', stopped);
    worker.on('exit', (code) => stopped(new Error(`the PDF worker stopped (exit code ${code})`)));
    this.#worker = worker;
    return worker;
  }

  #failAll(error: Error) {
    for (const waiting of this.#waiting.values()) waiting.reject(error);
    this.#waiting.clear();
  }
}
