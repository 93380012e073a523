import { fork, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
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
type Slot = { worker: ChildProcess; job: Job | null; idleTimer: NodeJS.Timeout | null };

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
  readonly #maxWorkers: number;
  readonly #idleMs: number;
  readonly #largeLines: number;
  readonly #slots = new Set<Slot>();
  /** A Map keeps insertion order: the order of the turns. */
  readonly #waiting = new Map<string, Job[]>();
  readonly #busyOwners = new Set<string>();
  #nextId = 1;
  #closed = false;

  constructor(options: PdfRendererOptions = {}) {
    this.#maxWorkers = options.workers ?? 2;
    this.#idleMs = options.idleMs ?? 30_000;
    this.#largeLines = options.largeLines ?? 2_000;
  }

  /** The processes making PDFs or waiting for one. */
  get processes(): number {
    return this.#slots.size;
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
    await Promise.all(slots.map((slot) => stop(slot.worker)));
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
      // Held while a PDF is being made, so a script waiting for one does not end first.
      slot.worker.channel?.ref();
      slot.worker.send(job.request);
    }
  }

  #freeSlot(): Slot | null {
    for (const slot of this.#slots) if (!slot.job) return slot;
    if (this.#slots.size >= this.#maxWorkers) return null;
    return this.#start();
  }

  #start(): Slot {
    // Structured clone, as a thread's messages: the statement goes and the PDF comes back as is.
    // No flags of this process (a test runner's): the worker runs on plain Node.
    const worker = fork(fileURLToPath(workerFile), {
      serialization: 'advanced',
      execArgv: [],
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    // An idle renderer never keeps the server's process alive.
    worker.unref();
    worker.channel?.unref();
    const slot: Slot = { worker, job: null, idleTimer: null };
    worker.on('message', (reply: PdfReply) => {
      const job = slot.job;
      if (!job || job.id !== reply.id) return;
      const lines = job.request.statement.lines.length + job.request.statement.openItems.length;
      this.#finish(slot);
      if ('pdf' in reply) job.resolve(Buffer.from(reply.pdf));
      else job.reject(new Error(`the statement PDF could not be made: ${reply.error}`));
      // A large statement's memory is given back at once; the next one starts afresh.
      if (lines > this.#largeLines) this.#end(slot);
      else if (this.#slots.has(slot))
        slot.idleTimer = setTimeout(() => this.#end(slot), this.#idleMs).unref();
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
    worker.on('exit', (code, signal) =>
      stopped(new Error(`the PDF worker stopped (exit code ${code}, signal ${signal})`)),
    );
    this.#slots.add(slot);
    return slot;
  }

  #finish(slot: Slot) {
    if (slot.job) this.#busyOwners.delete(slot.job.ownerId);
    slot.job = null;
    slot.worker.channel?.unref();
  }

  #end(slot: Slot) {
    if (slot.job || !this.#slots.delete(slot)) return;
    if (slot.idleTimer) clearTimeout(slot.idleTimer);
    void stop(slot.worker);
  }
}

/** Ends a worker process and waits until it has. */
async function stop(worker: ChildProcess): Promise<void> {
  if (worker.exitCode !== null || worker.signalCode !== null) return;
  const exited = once(worker, 'exit');
  // Until it has gone, so that closing the renderer can be waited for.
  worker.ref();
  worker.kill();
  await exited;
}
