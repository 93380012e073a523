import { Worker } from 'node:worker_threads';
import type { Locale } from '../../../shared/locales.ts';
import type { Statement } from '../../../shared/schemas/statement.ts';
import type { PdfReply, PdfRequest } from './statement-pdf-worker.ts';

// The tests and `npm run dev` run the .ts files; the bundle has the worker beside main.js.
const workerFile = new URL(
  import.meta.url.endsWith('.ts') ? './statement-pdf-worker.ts' : './statement-pdf-worker.js',
  import.meta.url,
);

type Job = {
  id: number;
  ownerId: string;
  request: PdfRequest;
  resolve: (pdf: Buffer) => void;
  reject: (error: Error) => void;
};
type Slot = { worker: Worker; job: Job | null; idleTimer: NodeJS.Timeout | null };

export interface PdfRendererOptions {
  workers?: number;
  idleMs?: number;
}

/** Fair between owners: one PDF each in the making, owners in turn (decision 019). */
export class PdfRenderer {
  readonly #maxWorkers: number;
  readonly #idleMs: number;
  readonly #slots = new Set<Slot>();
  /** A Map keeps insertion order: the order of the turns. */
  readonly #waiting = new Map<string, Job[]>();
  readonly #busyOwners = new Set<string>();
  #nextId = 1;
  #closed = false;

  constructor(options: PdfRendererOptions = {}) {
    this.#maxWorkers = options.workers ?? 2;
    this.#idleMs = options.idleMs ?? 30_000;
  }

  render(ownerId: string, statement: Statement, locale: Locale): Promise<Buffer> {
    if (this.#closed) return Promise.reject(new Error('the PDF renderer was closed'));
    return new Promise((resolve, reject) => {
      const id = this.#nextId++;
      const job: Job = { id, ownerId, request: { id, statement, locale }, resolve, reject };
      const queue = this.#waiting.get(ownerId);
      if (queue) queue.push(job);
      else this.#waiting.set(ownerId, [job]);
      this.#dispatch();
    });
  }

  async close(): Promise<void> {
    this.#closed = true;
    const error = new Error('the PDF renderer was closed');
    for (const queue of this.#waiting.values()) for (const job of queue) job.reject(error);
    this.#waiting.clear();
    const slots = [...this.#slots];
    this.#slots.clear();
    for (const slot of slots) {
      if (slot.idleTimer) clearTimeout(slot.idleTimer);
      slot.job?.reject(error);
    }
    await Promise.all(slots.map((slot) => slot.worker.terminate()));
  }

  #dispatch() {
    for (const [ownerId, queue] of this.#waiting) {
      if (this.#busyOwners.has(ownerId)) continue;
      const slot = this.#freeSlot();
      if (!slot) return;
      const job = queue.shift();
      // The owner goes to the back of the line; it leaves it when nothing of its waits.
      this.#waiting.delete(ownerId);
      if (queue.length > 0) this.#waiting.set(ownerId, queue);
      if (!job) continue;
      this.#busyOwners.add(ownerId);
      if (slot.idleTimer) clearTimeout(slot.idleTimer);
      slot.idleTimer = null;
      slot.job = job;
      slot.worker.postMessage(job.request);
    }
  }

  #freeSlot(): Slot | null {
    for (const slot of this.#slots) if (!slot.job) return slot;
    if (this.#slots.size >= this.#maxWorkers) return null;
    return this.#start();
  }

  #start(): Slot {
    const worker = new Worker(workerFile);
    // An idle renderer never keeps the process alive.
    worker.unref();
    const slot: Slot = { worker, job: null, idleTimer: null };
    worker.on('message', (reply: PdfReply) => {
      const job = slot.job;
      if (!job || job.id !== reply.id) return;
      this.#finish(slot);
      if ('pdf' in reply) job.resolve(Buffer.from(reply.pdf));
      else job.reject(new Error(`the statement PDF could not be made: ${reply.error}`));
      if (this.#slots.has(slot)) {
        slot.idleTimer = setTimeout(() => this.#end(slot), this.#idleMs).unref();
      }
      this.#dispatch();
    });
    const stopped = (error: Error) => {
      if (!this.#slots.delete(slot)) return;
      if (slot.idleTimer) clearTimeout(slot.idleTimer);
      const job = slot.job;
      this.#finish(slot);
      job?.reject(error);
      this.#dispatch();
    };
    worker.on('error', stopped);
    worker.on('exit', (code) => stopped(new Error(`the PDF worker stopped (exit code ${code})`)));
    this.#slots.add(slot);
    return slot;
  }

  #finish(slot: Slot) {
    if (slot.job) this.#busyOwners.delete(slot.job.ownerId);
    slot.job = null;
  }

  #end(slot: Slot) {
    if (slot.job || !this.#slots.delete(slot)) return;
    void slot.worker.terminate();
  }
}
