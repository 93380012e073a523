import type { Locale } from '../../../shared/locales.ts';
import type { Statement } from '../../../shared/schemas/statement.ts';
import { WorkerPool } from '../../worker-pool.ts';
import type { PdfRequest } from './statement-pdf-worker.ts';

// The tests and `npm run dev` run the .ts files; the bundle has the worker beside main.js.
const workerFile = new URL(
  import.meta.url.endsWith('.ts') ? './statement-pdf-worker.ts' : './statement-pdf-worker.js',
  import.meta.url,
);

export interface PdfRendererOptions {
  workers?: number;
  idleMs?: number;
  /** A process that made a statement of more lines than this ends at once (decision 037). */
  largeLines?: number;
}

/**
 * Fair between owners: one PDF each in the making, owners in turn (decision 019). Each PDF is made
 * in a child process, which ends after a large statement or when idle: the memory a PDF took goes
 * back to the system then, which a worker thread's did not (decision 037).
 */
export class PdfRenderer {
  readonly #processes: WorkerPool<PdfRequest, Uint8Array>;

  constructor({ largeLines = 2_000, ...options }: PdfRendererOptions = {}) {
    this.#processes = new WorkerPool(workerFile, 'the statement PDF could not be made', {
      ...options,
      processes: true,
      endsWorker: ({ statement }) =>
        statement.lines.length + statement.openItems.length > largeLines,
    });
  }

  /** The processes making PDFs or waiting for one. */
  get processes(): number {
    return this.#processes.size;
  }

  async render(bookId: string, statement: Statement, locale: Locale): Promise<Buffer> {
    const pdf = await this.#processes.run(bookId, { statement, locale });
    return Buffer.from(pdf.buffer, pdf.byteOffset, pdf.byteLength);
  }

  close(): Promise<void> {
    return this.#processes.close();
  }
}
