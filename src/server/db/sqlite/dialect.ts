import { Worker } from 'node:worker_threads';
import {
  CompiledQuery,
  RawNode,
  SelectQueryNode,
  SqliteAdapter,
  type DatabaseConnection,
  type DialectAdapter,
  type Driver,
  type QueryResult,
} from 'kysely';
import type { Actor } from '../actor.ts';
import { AppError, type AppErrorData } from '../../errors.ts';
import { SqliteConnectionBase, SqliteDialectBase, toQueryResult } from './dialect-base.ts';
import {
  readyMessage,
  type CommandOutcome,
  type GroupLimits,
  type QueryOutcome,
  type WorkerOptions,
  type WorkerReply,
  type WorkerRequest,
  type WorkerRole,
} from './protocol.ts';
import { slowReadLaneMark } from './slow-read-lane.ts';

/** Two, so a slow read cannot hold up every other read (decision 008). */
const readerCount = 2;

/** Six, so the first answers make their round trip while the writer runs the rest (decision 008). */
export const defaultGroupLimits: GroupLimits = { units: 6, ms: 10 };

/**
 * For those who open the database without the app; the app hands its own
 * (src/server/sqlite-thread.ts). Built, it is an entry of its own beside main.js.
 */
const threadWithoutCommands = new URL(
  import.meta.url.endsWith('.ts')
    ? './sqlite-thread-without-commands.ts'
    : './sqlite-thread-without-commands.js',
  import.meta.url,
);

type Request = WorkerRequest extends infer R ? (R extends unknown ? Omit<R, 'id'> : never) : never;

class SqliteWorkerError extends Error {
  code?: string;
  errcode?: number;
  errstr?: string;
  app?: AppErrorData;
}

type Outcome = QueryOutcome | CommandOutcome | undefined;

/** Moved, not copied, to spare the request thread (decision 014); pooled Buffers are copied. */
function movableMemory(argument: unknown): ArrayBuffer[] {
  if (!ArrayBuffer.isView(argument)) return [];
  const { buffer, byteOffset, byteLength } = argument;
  return buffer instanceof ArrayBuffer && byteOffset === 0 && byteLength === buffer.byteLength
    ? [buffer]
    : [];
}

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
  #outbox: WorkerRequest[] = [];
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
    this.#worker.on('message', (message: WorkerReply[] | typeof readyMessage) => {
      if (message === readyMessage) return;
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

  get busy(): number {
    return this.#waiting.size;
  }

  /** The caller's views of `move` are empty afterwards. */
  request(request: Request, move: readonly ArrayBuffer[] = []): Promise<Outcome> {
    if (this.#stopped) return Promise.reject(this.#stopped);
    const id = this.#nextId++;
    return new Promise((resolve, reject) => {
      this.#waiting.set(id, { resolve, reject });
      // One message per turn: each message costs both threads a wake-up.
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
      // Memory that cannot move is copied; what cannot be sent fails its requests, not the process.
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

  async crash(): Promise<void> {
    await this.#worker.terminate();
  }
}

const queryResult = <R>(outcome: Outcome) => toQueryResult<R>(outcome as QueryOutcome | undefined);

function isRead(query: CompiledQuery): boolean {
  return (
    SelectQueryNode.is(query.query) || (RawNode.is(query.query) && /^\s*select\b/i.test(query.sql))
  );
}

let nextTransaction = 1;

class WorkerConnection extends SqliteConnectionBase {
  readonly #driver: SqliteWorkerDriver;
  transaction: number | null = null;

  constructor(driver: SqliteWorkerDriver) {
    super();
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
}

const quoteName = (name: string) => `"${name.replaceAll('"', '""')}"`;

class SqliteWorkerDriver implements Driver {
  readonly #thread: URL;
  readonly #file: string;
  readonly #group: GroupLimits;
  readonly #onStopped: (role: WorkerRole, error: Error) => void;
  #writer: WorkerLink | null = null;
  #readers: WorkerLink[] = [];
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

  /** All readers but one at most, so quick reads always find a reader free. */
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

/** Reads run beside the writer, so Kysely must not queue them behind it. */
class SqliteWorkerAdapter extends SqliteAdapter {
  override get supportsMultipleConnections(): boolean {
    return true;
  }
}

export class SqliteWorkerDialect extends SqliteDialectBase {
  readonly #thread: URL;
  readonly #file: string;
  readonly #group: GroupLimits;
  readonly #onStopped: (role: WorkerRole, error: Error) => void;
  #driver: SqliteWorkerDriver | null = null;

  /** `onStopped`: a thread crashed, every query it would run fails: do not carry on as healthy. */
  constructor(
    file: string,
    group: GroupLimits = defaultGroupLimits,
    onStopped: (role: WorkerRole, error: Error) => void = () => {},
    thread: URL = threadWithoutCommands,
  ) {
    super();
    this.#thread = thread;
    this.#file = file;
    this.#group = group;
    this.#onStopped = onStopped;
  }

  createDriver(): Driver {
    this.#driver = new SqliteWorkerDriver(this.#thread, this.#file, this.#group, this.#onStopped);
    return this.#driver;
  }

  async runCommand<T>(
    name: string,
    bookId: string,
    args: unknown[],
    actor: Actor | null = null,
  ): Promise<{ value: T; changed: boolean }> {
    if (!this.#driver) throw new Error('the SQLite driver is not initialised');
    try {
      const outcome = await this.#driver.writer.request(
        { op: 'command', name, bookId, args, actor },
        args.flatMap(movableMemory),
      );
      return outcome as { value: T; changed: boolean };
    } catch (error) {
      if (error instanceof SqliteWorkerError && error.app) throw AppError.fromData(error.app);
      throw error;
    }
  }

  /** For the fault tests. */
  async crashWriter(): Promise<void> {
    await this.#driver?.writer.crash();
  }

  override createAdapter(): DialectAdapter {
    return new SqliteWorkerAdapter();
  }
}
