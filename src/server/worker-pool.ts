// Work that would hold the thread answering requests runs on a few workers, started when needed
// and ended when idle: the bank statements people send, on worker threads (decision 036), and
// statement PDFs, in child processes (decisions 019 and 037: a thread's memory did not go back
// to the system; a process's does when it ends).
import { fork, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
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
  bookId: string;
  request: Request;
  transfer: Transferable[];
  resolve: (result: Result) => void;
  reject: (error: Error) => void;
};
/** What the pool needs of a worker, a thread or a child process alike. */
interface JobWorker {
  /** Events come after the code that started the worker has run: listening then misses none. */
  listen(events: WorkerEvents): void;
  send(message: JobRequest<unknown>, transfer: Transferable[]): void;
  /** A busy worker keeps the server's process alive (a script waits for its answer); an idle one does not. */
  hold(busy: boolean): void;
  /** Ends the worker, resolved once it has. */
  stop(): Promise<void>;
}
interface WorkerEvents {
  message: (reply: JobReply<unknown>) => void;
  stopped: (error: Error) => void;
}

type Slot<Request, Result> = {
  worker: JobWorker;
  job: Job<Request, Result> | null;
  idleTimer: NodeJS.Timeout | null;
};

export interface WorkerPoolOptions<Request = unknown> {
  workers?: number;
  idleMs?: number;
  /** A child process per worker rather than a thread: its memory goes back when it ends. */
  processes?: boolean;
  /** A job this says is large ends its worker when done, giving its memory back at once. */
  endsWorker?: (request: Request) => boolean;
  /** A job that needs more ends its thread, and is answered with `outOfMemory`'s error. */
  resourceLimits?: ResourceLimits;
  outOfMemory?: () => Error;
}

/**
 * Fair between owners: one job each at a time, owners in turn, on at most `workers` threads or
 * processes running `workerFile` (which answers with `answerJobs`).
 */
export class WorkerPool<Request, Result> {
  readonly #workerFile: URL;
  /** Says what failed, in the errors of a job that did not finish ("the statement PDF ..."). */
  readonly #what: string;
  readonly #maxWorkers: number;
  readonly #idleMs: number;
  readonly #options: WorkerPoolOptions<Request>;
  readonly #slots = new Set<Slot<Request, Result>>();
  /** A Map keeps insertion order: the order of the turns. */
  readonly #waiting = new Map<string, Job<Request, Result>[]>();
  readonly #busyOwners = new Set<string>();
  #nextId = 1;
  #closed = false;

  constructor(workerFile: URL, what: string, options: WorkerPoolOptions<Request> = {}) {
    this.#workerFile = workerFile;
    this.#what = what;
    this.#maxWorkers = options.workers ?? 2;
    this.#idleMs = options.idleMs ?? 30_000;
    this.#options = options;
  }

  /** The workers running or idle, not yet ended. */
  get size(): number {
    return this.#slots.size;
  }

  /** What `transfer` lists is handed to the worker, no longer usable here. */
  run(bookId: string, request: Request, transfer: Transferable[] = []): Promise<Result> {
    if (this.#closed) return Promise.reject(this.#closedError());
    return new Promise((resolve, reject) => {
      const id = this.#nextId++;
      const job: Job<Request, Result> = { id, bookId, request, transfer, resolve, reject };
      const queue = this.#waiting.get(bookId);
      if (queue) queue.push(job);
      else this.#waiting.set(bookId, [job]);
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
    await Promise.all(slots.map((slot) => slot.worker.stop()));
  }

  #closedError() {
    return new Error(`${this.#what}: the server is closing`);
  }

  #dispatch() {
    for (const [bookId, queue] of this.#waiting) {
      if (this.#busyOwners.has(bookId)) continue;
      const slot = this.#freeSlot();
      if (!slot) return;
      const job = queue.shift();
      // The owner goes to the back of the line; it leaves it when nothing of its waits.
      this.#waiting.delete(bookId);
      if (queue.length > 0) this.#waiting.set(bookId, queue);
      if (!job) continue;
      this.#busyOwners.add(bookId);
      if (slot.idleTimer) clearTimeout(slot.idleTimer);
      slot.idleTimer = null;
      slot.job = job;
      slot.worker.hold(true);
      slot.worker.send({ id: job.id, request: job.request }, job.transfer);
    }
  }

  #freeSlot(): Slot<Request, Result> | null {
    for (const slot of this.#slots) if (!slot.job) return slot;
    if (this.#slots.size >= this.#maxWorkers) return null;
    return this.#start();
  }

  #start(): Slot<Request, Result> {
    const worker = this.#options.processes
      ? startProcess(this.#workerFile, this.#what)
      : startThread(this.#workerFile, this.#what, this.#options);
    const slot: Slot<Request, Result> = { worker, job: null, idleTimer: null };
    worker.listen({
      message: (reply) => {
        const job = slot.job;
        if (!job || job.id !== reply.id) return;
        this.#finish(slot);
        if ('result' in reply) job.resolve(reply.result as Result);
        else if ('refused' in reply) job.reject(AppError.fromData(reply.refused));
        else job.reject(new Error(`${this.#what}: ${reply.failed}`));
        if (this.#options.endsWorker?.(job.request)) this.#end(slot);
        else if (this.#slots.has(slot))
          slot.idleTimer = setTimeout(() => this.#end(slot), this.#idleMs).unref();
        this.#dispatch();
      },
      stopped: (error) => {
        if (!this.#slots.delete(slot)) return;
        if (slot.idleTimer) clearTimeout(slot.idleTimer);
        const job = slot.job;
        this.#finish(slot);
        job?.reject(error);
        this.#dispatch();
      },
    });
    this.#slots.add(slot);
    return slot;
  }

  #finish(slot: Slot<Request, Result>) {
    if (slot.job) this.#busyOwners.delete(slot.job.bookId);
    slot.job = null;
    slot.worker.hold(false);
  }

  #end(slot: Slot<Request, Result>) {
    if (slot.job || !this.#slots.delete(slot)) return;
    if (slot.idleTimer) clearTimeout(slot.idleTimer);
    void slot.worker.stop();
  }
}

function startThread(
  file: URL,
  what: string,
  options: Pick<WorkerPoolOptions, 'resourceLimits' | 'outOfMemory'>,
): JobWorker {
  const worker = new Worker(file, {
    ...(options.resourceLimits && { resourceLimits: options.resourceLimits }),
  });
  // An idle thread never keeps the process alive; a busy one is waited for by its job's promise.
  worker.unref();
  return {
    listen: (events) => {
      worker.on('message', events.message);
      worker.on('error', (error: Error & { code?: string }) =>
        events.stopped(
          error.code === 'ERR_WORKER_OUT_OF_MEMORY' && options.outOfMemory
            ? options.outOfMemory()
            : error,
        ),
      );
      worker.on('exit', (code) =>
        events.stopped(new Error(`${what}: its worker stopped (exit code ${code})`)),
      );
    },
    send: (message, transfer) => worker.postMessage(message, transfer),
    hold: () => {},
    stop: async () => {
      await worker.terminate();
    },
  };
}

function startProcess(file: URL, what: string): JobWorker {
  // Structured clone, as a thread's messages: the request goes and the result comes back as is.
  // No flags of this process (a test runner's): the worker runs on plain Node.
  const child = fork(fileURLToPath(file), {
    serialization: 'advanced',
    execArgv: [],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  // An idle worker never keeps the server's process alive.
  child.unref();
  child.channel?.unref();
  return {
    listen: (events) => {
      child.on('message', events.message);
      child.on('error', events.stopped);
      child.on('exit', (code, signal) =>
        events.stopped(
          new Error(`${what}: its process stopped (exit code ${code}, signal ${signal})`),
        ),
      );
    },
    send: (message) => child.send(message),
    // Held while a job runs, so that a script waiting for its answer does not end first.
    hold: (busy) => (busy ? child.channel?.ref() : child.channel?.unref()),
    stop: () => stopProcess(child),
  };
}

/** Ends a worker process and waits until it has. */
async function stopProcess(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = once(child, 'exit');
  // Until it has gone, so that closing the pool can be waited for.
  child.ref();
  child.kill();
  await exited;
}

/**
 * The worker's side, in a thread or a child process: each job's request handed to `work`, its
 * result or error sent back.
 */
export function answerJobs<Request, Result>(
  work: (request: Request) => Promise<{ result: Result; transfer?: Transferable[] }>,
): void {
  const reply = replyChannel();
  const onRequest = ({ id, request }: JobRequest<Request>) => {
    work(request).then(
      ({ result, transfer }) => reply({ id, result } satisfies JobReply<Result>, transfer),
      (error: unknown) =>
        reply(
          (error instanceof AppError
            ? { id, refused: error.toData() }
            : {
                id,
                failed: error instanceof Error ? (error.stack ?? error.message) : String(error),
              }) satisfies JobReply<Result>,
        ),
    );
  };
  if (parentPort) parentPort.on('message', onRequest);
  else process.on('message', onRequest);
}

function replyChannel(): (message: JobReply<unknown>, transfer?: Transferable[]) => void {
  const port = parentPort;
  if (port) return (message, transfer) => port.postMessage(message, transfer);
  const send = process.send?.bind(process);
  if (!send) throw new Error('answerJobs runs only in a worker thread or a forked child process');
  // The server's end (or its channel closing) ends this process too, and a server that is gone
  // takes no answer.
  process.on('disconnect', () => process.exit(0));
  return (message) =>
    send(message, (error: Error | null) => {
      if (error) process.exit(0);
    });
}
