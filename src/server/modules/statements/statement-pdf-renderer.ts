import type { Locale } from '../../../shared/locales.ts';
import type { Statement } from '../../../shared/schemas/statement.ts';
import { WorkerPool, type WorkerPoolOptions } from '../../worker-pool.ts';
import type { PdfRequest } from './statement-pdf-worker.ts';

// The tests and `npm run dev` run the .ts files; the bundle has the worker beside main.js.
const workerFile = new URL(
  import.meta.url.endsWith('.ts') ? './statement-pdf-worker.ts' : './statement-pdf-worker.js',
  import.meta.url,
);

/** Fair between owners: one PDF each in the making, owners in turn (decision 019). */
export class PdfRenderer {
  readonly #workers: WorkerPool<PdfRequest, Uint8Array>;

  constructor(options: WorkerPoolOptions = {}) {
    this.#workers = new WorkerPool(workerFile, 'the statement PDF could not be made', options);
  }

  async render(ownerId: string, statement: Statement, locale: Locale): Promise<Buffer> {
    const pdf = await this.#workers.run(ownerId, { statement, locale });
    return Buffer.from(pdf.buffer, pdf.byteOffset, pdf.byteLength);
  }

  close(): Promise<void> {
    return this.#workers.close();
  }
}
