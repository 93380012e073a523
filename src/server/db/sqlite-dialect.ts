import { Worker } from 'node:worker_threads';
import {
  CompiledQuery,
  RawNode,
  SelectQueryNode,
  SqliteAdapter,
  SqliteIntrospector,
  SqliteQueryCompiler,
  type DatabaseConnection,
  type Dialect,
  type Driver,
  type Kysely,
  type QueryResult,
} from 'kysely';
import { slowReadLaneMark } from './slow-read-lane.ts';
import { toQueryResult, type QueryOutcome } from './sqlite.ts';
import { AppError, type AppErrorData } from '../errors.ts';
import type {
  CommandOutcome,
  GroupLimits,
  WorkerOptions,
  WorkerReply,
  WorkerRequest,
  WorkerRole,
} from './sqlite-worker.ts';

/**
 * Read-only connections beside the writer. Two keep a slow read (a search over a very long
 * list, a page of an export) from holding up every other read on this two-core machine
 * (docs/decisions/008-sqlite-in-worker-threads.md).
 */
const readerCount = 2;

/**
 * A group commits at 6 transactions, or 10 ms after it began, whichever comes first. Six, not
 * more: with 64, ten clients' balance changes went in one group (about 2 ms of work, then a
 * 0.75 ms commit), and the writer then sat idle about 2 ms while all ten answers went back and
 * the clients' next requests came in. Capped at six, the first answers make that trip while
 * the writer runs the rest: 2,580/s against 2,130/s (docs/performance.md).
 */
export const defaultGroupLimits: GroupLimits = { units: 6, ms: 10 };

/**
 * The entry of threads whose writer runs no command, for those who open the database without the
 * app; the app hands its own (src/server/sqlite-thread.ts). The tests and `npm run dev` run the .ts
 * files; the bundle has the entries beside main.js.
 */
const threadWithoutCommands = new URL(
  import.meta.url.endsWith('.ts')
    ? './sqlite-thread-without-commands.ts'
    : './sqlite-thread-without-commands.js',
  import.meta.url,
);

type Request = WorkerRequest extends infer R ? (R extends unknown ? Omit<R, 'id'> : never) : never;

/** An error from the worker, rebuilt with the fields callers look at (message, SQLite codes). */
class SqliteWorkerError extends Error {
  code?: string;
  errcode?: number;
  errstr?: string;
  app?: AppErrorData;
}

type Outcome = QueryOutcome | CommandOutcome | undefined;

/**
 * The memory of a command's argument that can move to the writer rather than be copied: bytes
 * (an import's or a restore's body, up to 64 MiB) that are the whole of their memory. Copying
 * 32 MB held the request thread for about 20 ms; moving it takes well under one. Bytes that
 * share their memory with others (Node's pool of small Buffers) are copied as before.
 */
function movableMemory(argument: unknown): ArrayBuffer[] {
  if (!ArrayBuffer.isView(argument)) return [];
  const { buffer, byteOffset, byteLength } = argument;
  return buffer instanceof ArrayBuffer && byteOffset === 0 && byteLength === buffer.byteLength
    ? [buffer]
    : [];
}

/** One worker thread and the requests it has not answered yet. */
class WorkerLink {
  readonly #worker: Worker;
  readonly #waiting = new Map<
    number,
    { resolve: (result: Outcome) => void; reject: (error: Error) => void }
  >();
  readonly ready: Promise<void>;
  #nextId = 1;
  #stopped: Error | null = null;
  #closing = false;
  /** Requests made during this turn of the event loop, sent together at its end. */
  #outbox: WorkerRequest[] = [];
  /** The memory the outbox's requests move to the thread rather than copy (`request`). */
  #moving = new Set<ArrayBuffer>();

  constructor(
    thread: URL,
    role: WorkerRole,
    file: string,
    group: GroupLimits,
    onStopped: (role: WorkerRole, error: Error) => void,
  ) {
    const options: WorkerOptions = { role, file, group };
    this.#worker = new Worker(thread, { workerData: options });
    this.ready = new Promise((resolve, reject) => {
      this.#worker.once('message', () => resolve());
      this.#worker.once('error', reject);
      this.#worker.once('exit', (code) =>
        reject(new Error(`the SQLite ${role} stopped before it was ready (exit code ${code})`)),
      );
    });
    this.#worker.on('message', (message: WorkerReply[] | 'ready') => {
      if (message === 'ready') return;
      for (const reply of message) this.#answer(reply);
    });
    const stop = (error: Error) => {
      if (this.#stopped) return;
      this.#stopped = error;
      for (const waiting of this.#waiting.values()) waiting.reject(error);
      this.#waiting.clear();
      // Not asked to: every query sent to this thread from now on would fail.
      if (!this.#closing) onStopped(role, error);
    };
    this.#worker.on('error', stop);
    this.#worker.on('exit', (code) => stop(new Error(`the SQLite ${role} stopped (${code})`)));
  }

  #answer(reply: WorkerReply): void {
    const waiting = this.#waiting.get(reply.id);
    if (!waiting) return;
    this.#waiting.delete(reply.id);
    if (reply.ok) {
      waiting.resolve(reply.result);
    } else {
      waiting.reject(Object.assign(new SqliteWorkerError(reply.error.message), reply.error));
    }
  }

  /** Requests sent and not answered yet: readers are chosen by it. */
  get busy(): number {
    return this.#waiting.size;
  }

  /**
   * Sends a request with the next message; `move` is memory of its arguments that goes to the
   * thread rather than being copied there (the caller's views of it are empty afterwards).
   */
  request(request: Request, move: readonly ArrayBuffer[] = []): Promise<Outcome> {
    if (this.#stopped) return Promise.reject(this.#stopped);
    const id = this.#nextId++;
    return new Promise((resolve, reject) => {
      this.#waiting.set(id, { resolve, reject });
      // One message per turn, whatever the requests in it (each message costs both threads a
      // wake-up): under load, the requests that arrived together share one.
      this.#outbox.push({ ...request, id });
      for (const memory of move) this.#moving.add(memory);
      if (this.#outbox.length === 1) setImmediate(this.#flush);
    });
  }

  readonly #flush = () => {
    const requests = this.#outbox;
    const moving = [...this.#moving];
    this.#outbox = [];
    this.#moving.clear();
    if (this.#stopped) return;
    try {
      this.#worker.postMessage(requests, moving);
    } catch {
      // Memory that cannot move (already moved, or marked so) is copied instead; what cannot
      // be sent at all fails its requests, never the process.
      try {
        this.#worker.postMessage(requests);
      } catch (error) {
        const message = error instanceof Error ? error.message : String(error);
        for (const { id } of requests) this.#answer({ id, ok: false, error: { message } });
      }
    }
  };

  async close(): Promise<void> {
    this.#closing = true;
    if (!this.#stopped) await this.request({ op: 'close' });
    await this.#worker.terminate();
  }

  /** Ends the thread at once, as a crash inside it would (the fault tests use it). */
  async crash(): Promise<void> {
    await this.#worker.terminate();
  }
}

/** A query's reply carries what its statement gave (only a command's carries anything else). */
const queryResult = <R>(outcome: Outcome) => toQueryResult<R>(outcome as QueryOutcome | undefined);

/** Reads outside a transaction may go to a reader, which sees only committed data. */
function isRead(query: CompiledQuery): boolean {
  return (
    SelectQueryNode.is(query.query) || (RawNode.is(query.query) && /^\s*select\b/i.test(query.sql))
  );
}

let nextTransaction = 1;

class WorkerConnection implements DatabaseConnection {
  readonly #driver: SqliteWorkerDriver;
  /** The writer's transaction this connection is in, if any. */
  transaction: number | null = null;

  constructor(driver: SqliteWorkerDriver) {
    this.#driver = driver;
  }

  async executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
    const message = { op: 'query' as const, sql: query.sql, parameters: [...query.parameters] };
    if (this.transaction !== null)
      return queryResult(await this.#driver.writer.request({ ...message, tx: this.transaction }));
    if (!isRead(query)) return queryResult(await this.#driver.writer.request(message));
    if (query.sql.endsWith(slowReadLaneMark))
      return queryResult(await this.#driver.slowRead(message));
    return queryResult(await this.#driver.reader().request(message));
  }

  // eslint-disable-next-line require-yield
  async *streamQuery<R>(): AsyncIterableIterator<QueryResult<R>> {
    throw new Error('Streaming is not supported on SQLite: read in keyset pages instead');
  }
}

const quoteName = (name: string) => `"${name.replaceAll('"', '""')}"`;

class SqliteWorkerDriver implements Driver {
  readonly #thread: URL;
  readonly #file: string;
  readonly #group: GroupLimits;
  readonly #onStopped: (role: WorkerRole, error: Error) => void;
  #writer: WorkerLink | null = null;
  #readers: WorkerLink[] = [];
  /** Readers running a read of the slow lane, and such reads waiting for their turn. */
  readonly #slowLaneOn = new Set<WorkerLink>();
  readonly #slowLaneWaiting: (() => void)[] = [];

  constructor(
    thread: URL,
    file: string,
    group: GroupLimits,
    onStopped: (role: WorkerRole, error: Error) => void,
  ) {
    this.#thread = thread;
    this.#file = file;
    this.#group = group;
    this.#onStopped = onStopped;
  }

  get writer(): WorkerLink {
    if (!this.#writer) throw new Error('the SQLite driver is not initialised');
    return this.#writer;
  }

  /**
   * The least busy reader not running a slow read (the least busy of all if each is); the
   * writer where there is none (an in-memory database).
   */
  reader(): WorkerLink {
    let best: WorkerLink | undefined;
    for (const reader of this.#readers) {
      if (!best) best = reader;
      else if (this.#slowLaneOn.has(best) !== this.#slowLaneOn.has(reader)) {
        if (this.#slowLaneOn.has(best)) best = reader;
      } else if (reader.busy < best.busy) best = reader;
    }
    return best ?? this.writer;
  }

  /**
   * A read of the slow lane (slow-read-lane.ts). At most all readers but one run such reads at a time,
   * the others wait here in turn, so quick reads always have a reader that answers them at once.
   */
  async slowRead(request: Request): Promise<Outcome> {
    const lanes = Math.max(1, this.#readers.length - 1);
    while (this.#slowLaneOn.size >= lanes)
      await new Promise<void>((resolve) => this.#slowLaneWaiting.push(resolve));
    const link = this.reader();
    this.#slowLaneOn.add(link);
    try {
      return await link.request(request);
    } finally {
      this.#slowLaneOn.delete(link);
      this.#slowLaneWaiting.shift()?.();
    }
  }

  async init(): Promise<void> {
    // The writer first: it creates the file and switches it to WAL before a reader opens it.
    this.#writer = new WorkerLink(this.#thread, 'writer', this.#file, this.#group, this.#onStopped);
    await this.#writer.ready;
    if (this.#file === ':memory:') return;
    this.#readers = Array.from(
      { length: readerCount },
      () => new WorkerLink(this.#thread, 'reader', this.#file, this.#group, this.#onStopped),
    );
    await Promise.all(this.#readers.map((reader) => reader.ready));
  }

  async acquireConnection(): Promise<DatabaseConnection> {
    return new WorkerConnection(this);
  }

  async beginTransaction(connection: DatabaseConnection): Promise<void> {
    const tx = nextTransaction++;
    await this.writer.request({ op: 'begin', tx });
    (connection as WorkerConnection).transaction = tx;
  }

  async commitTransaction(connection: DatabaseConnection): Promise<void> {
    await this.#end(connection as WorkerConnection, 'commit');
  }

  async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    await this.#end(connection as WorkerConnection, 'rollback');
  }

  async #end(connection: WorkerConnection, op: 'commit' | 'rollback'): Promise<void> {
    const tx = connection.transaction;
    // Kysely rolls back after a failed commit; the writer has already ended that transaction.
    if (tx === null && op === 'rollback') return;
    if (tx === null) throw new Error('commit outside a transaction');
    connection.transaction = null;
    await this.writer.request({ op, tx });
  }

  async savepoint(connection: DatabaseConnection, name: string): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw(`savepoint ${quoteName(name)}`));
  }

  async rollbackToSavepoint(connection: DatabaseConnection, name: string): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw(`rollback to ${quoteName(name)}`));
  }

  async releaseSavepoint(connection: DatabaseConnection, name: string): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw(`release ${quoteName(name)}`));
  }

  async releaseConnection(): Promise<void> {}

  async destroy(): Promise<void> {
    const links = [...this.#readers, ...(this.#writer ? [this.#writer] : [])];
    this.#readers = [];
    this.#writer = null;
    await Promise.all(links.map((link) => link.close()));
  }
}

/** Several connections: reads run beside the writer, so Kysely must not queue them behind it. */
class SqliteWorkerAdapter extends SqliteAdapter {
  override get supportsMultipleConnections(): boolean {
    return true;
  }
}

/**
 * Kysely on SQLite with every query in a worker thread: one writer that commits transactions in
 * groups, and readers for reads outside transactions. The request thread never waits on SQLite.
 */
export class SqliteWorkerDialect implements Dialect {
  readonly #thread: URL;
  readonly #file: string;
  readonly #group: GroupLimits;
  readonly #onStopped: (role: WorkerRole, error: Error) => void;
  #driver: SqliteWorkerDriver | null = null;

  /**
   * `group` bounds a group commit; the tests widen it to watch a group form at their pace.
   * `onStopped` hears of a worker thread that ended without being closed (it crashed): from then
   * on every query it would have run fails, so the caller must not carry on as if healthy.
   * `thread` is the worker threads' entry file: the app's hands the writer its commands.
   */
  constructor(
    file: string,
    group: GroupLimits = defaultGroupLimits,
    onStopped: (role: WorkerRole, error: Error) => void = () => {},
    thread: URL = threadWithoutCommands,
  ) {
    this.#thread = thread;
    this.#file = file;
    this.#group = group;
    this.#onStopped = onStopped;
  }

  createDriver(): Driver {
    this.#driver = new SqliteWorkerDriver(this.#thread, this.#file, this.#group, this.#onStopped);
    return this.#driver;
  }

  /**
   * Runs the command of the write path named `name` in the writer thread (sqlite-commands.ts),
   * answered once its commit is on disk. An AppError it threw is thrown here again.
   */
  async runCommand<T>(
    name: string,
    ownerId: string,
    args: unknown[],
  ): Promise<{ value: T; changed: boolean }> {
    if (!this.#driver) throw new Error('the SQLite driver is not initialised');
    try {
      const outcome = await this.#driver.writer.request(
        { op: 'command', name, ownerId, args },
        args.flatMap(movableMemory),
      );
      return outcome as { value: T; changed: boolean };
    } catch (error) {
      if (error instanceof SqliteWorkerError && error.app) throw AppError.fromData(error.app);
      throw error;
    }
  }

  /** Ends the writer thread at once, as a crash inside it would: for the fault tests. */
  async crashWriter(): Promise<void> {
    await this.#driver?.writer.crash();
  }

  createQueryCompiler() {
    return new SqliteQueryCompiler();
  }

  createAdapter() {
    return new SqliteWorkerAdapter();
  }

  createIntrospector(db: Kysely<unknown>) {
    return new SqliteIntrospector(db);
  }
}
