// Work that would hold the thread answering requests runs on a few worker threads, started when
// needed and ended when idle: the bank statements people send (decision 036). Statement PDFs keep
// the same turns in child processes of their own (statement-pdf-renderer.ts, decision 037): a
// thread's memory did not go back to the system.
import { parentPort, Worker, type ResourceLimits, type Transferable } from 'node:worker_threads';
import { AppError, type AppErrorData } from './errors.ts';

type JobRequest<Request> = { id: number; request: Request };
/** An `AppError` thrown in the worker crosses as its data and is thrown again here. */
type JobReply<Result> =
  | { id: number; result: Result }
  | { id: number; refused: AppErrorData }
  | { id: number; failed: string };

type Job<Request, Result> = {
  id: number;
  ownerId: string;
  request: Request;
  transfer: Transferable[];
  resolve: (result: Result) => void;
  reject: (error: Error) => void;
};
type Slot<Request, Result> = {
  worker: Worker;
  job: Job<Request, Result> | null;
  idleTimer: NodeJS.Timeout | null;
};

export interface WorkerPoolOptions {
  workers?: number;
  idleMs?: number;
  /** A job that needs more ends its worker, and is answered with `outOfMemory`'s error. */
  resourceLimits?: ResourceLimits;
  outOfMemory?: () => Error;
}

/**
 * Fair between owners: one job each at a time, owners in turn, on at most `workers` threads
 * running `workerFile` (which answers with `answerJobs`).
 */
export class WorkerPool<Request, Result> {
  readonly #workerFile: URL;
  /** Says what failed, in the errors of a job that did not finish ("the statement PDF ..."). */
  readonly #what: string;
  readonly #maxWorkers: number;
  readonly #idleMs: number;
  readonly #resourceLimits: ResourceLimits | undefined;
  readonly #outOfMemory: (() => Error) | undefined;
  readonly #slots = new Set<Slot<Request, Result>>();
  /** A Map keeps insertion order: the order of the turns. */
  readonly #waiting = new Map<string, Job<Request, Result>[]>();
  readonly #busyOwners = new Set<string>();
  #nextId = 1;
  #closed = false;

  constructor(workerFile: URL, what: string, options: WorkerPoolOptions = {}) {
    this.#workerFile = workerFile;
    this.#what = what;
    this.#maxWorkers = options.workers ?? 2;
    this.#idleMs = options.idleMs ?? 30_000;
    this.#resourceLimits = options.resourceLimits;
    this.#outOfMemory = options.outOfMemory;
  }

  /** What `transfer` lists is handed to the worker, no longer usable here. */
  run(ownerId: string, request: Request, transfer: Transferable[] = []): Promise<Result> {
    if (this.#closed) return Promise.reject(this.#closedError());
    return new Promise((resolve, reject) => {
      const id = this.#nextId++;
      const job: Job<Request, Result> = { id, ownerId, request, transfer, resolve, reject };
      const queue = this.#waiting.get(ownerId);
      if (queue) queue.push(job);
      else this.#waiting.set(ownerId, [job]);
      this.#dispatch();
    });
  }

  async close(): Promise<void> {
    this.#closed = true;
    const error = this.#closedError();
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

  #closedError() {
    return new Error(`${this.#what}: the server is closing`);
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
      slot.worker.postMessage(
        { id: job.id, request: job.request } satisfies JobRequest<Request>,
        job.transfer,
      );
    }
  }

  #freeSlot(): Slot<Request, Result> | null {
    for (const slot of this.#slots) if (!slot.job) return slot;
    if (this.#slots.size >= this.#maxWorkers) return null;
    return this.#start();
  }

  #start(): Slot<Request, Result> {
    const worker = new Worker(this.#workerFile, {
      ...(this.#resourceLimits && { resourceLimits: this.#resourceLimits }),
    });
    // An idle worker never keeps the process alive.
    worker.unref();
    const slot: Slot<Request, Result> = { worker, job: null, idleTimer: null };
    worker.on('message', (reply: JobReply<Result>) => {
      const job = slot.job;
      if (!job || job.id !== reply.id) return;
      this.#finish(slot);
      if ('result' in reply) job.resolve(reply.result);
      else if ('refused' in reply) job.reject(AppError.fromData(reply.refused));
      else job.reject(new Error(`${this.#what}: ${reply.failed}`));
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
    worker.on('error', (error: Error & { code?: string }) =>
      stopped(
        error.code === 'ERR_WORKER_OUT_OF_MEMORY' && this.#outOfMemory
          ? this.#outOfMemory()
          : error,
      ),
    );
    worker.on('exit', (code) =>
      stopped(new Error(`${this.#what}: its worker stopped (exit code ${code})`)),
    );
    this.#slots.add(slot);
    return slot;
  }

  #finish(slot: Slot<Request, Result>) {
    if (slot.job) this.#busyOwners.delete(slot.job.ownerId);
    slot.job = null;
  }

  #end(slot: Slot<Request, Result>) {
    if (slot.job || !this.#slots.delete(slot)) return;
    void slot.worker.terminate();
  }
}

/** The worker's side: each job's request handed to `work`, its result or error sent back. */
export function answerJobs<Request, Result>(
  work: (request: Request) => Promise<{ result: Result; transfer?: Transferable[] }>,
): void {
  const port = parentPort;
  if (!port) throw new Error('answerJobs runs only in a worker thread');
  port.on('message', ({ id, request }: JobRequest<Request>) => {
    work(request).then(
      ({ result, transfer }) =>
        port.postMessage({ id, result } satisfies JobReply<Result>, transfer),
      (error: unknown) =>
        port.postMessage(
          (error instanceof AppError
            ? { id, refused: error.toData() }
            : {
                id,
                failed: error instanceof Error ? (error.stack ?? error.message) : String(error),
              }) satisfies JobReply<Result>,
        ),
    );
  });
}
