// A worker thread that holds one node:sqlite connection, so no query runs on the thread that
// serves requests. The writer also commits transactions in groups (docs/decisions/008-*.md):
// each transaction runs in a savepoint of one shared transaction, and its caller is answered
// only after the shared COMMIT (synced by synchronous=FULL) has returned.
import { parentPort, workerData } from 'node:worker_threads';
import type { AppErrorData } from '../errors.ts';
import type { CommandRunner } from './sqlite-commands.ts';
import { openSqlite, runStatement, type QueryOutcome, type SqliteConnection } from './sqlite.ts';

export type WorkerRole = 'writer' | 'reader';

export interface GroupLimits {
  /** A group commits once it holds this many units of work... */
  units: number;
  /** ...or once it is this old, whichever comes first. */
  ms: number;
}

export interface WorkerOptions {
  role: WorkerRole;
  file: string;
  group: GroupLimits;
}

/** What the request thread asks; `tx` names the transaction a query belongs to. */
export type WorkerRequest =
  | { id: number; op: 'query'; sql: string; parameters: unknown[]; tx?: number }
  | { id: number; op: 'begin' | 'commit' | 'rollback'; tx: number }
  /** A named command of the write path, run whole in the writer (sqlite-commands.ts). */
  | { id: number; op: 'command'; name: string; ownerId: string; args: unknown[] }
  /** A slice of a long list argument, sent ahead of its command (`StagedArgument`). */
  | { id: number; op: 'stage'; key: number; items: unknown[] }
  | { id: number; op: 'close' };

/**
 * Stands for a long list argument of a command, sent ahead in slices under this key: a list of
 * 20,000 rows cloned in one message would hold the request thread for 20-30 ms.
 */
export interface StagedArgument {
  stagedArgument: number;
}

const isStaged = (value: unknown): value is StagedArgument =>
  typeof value === 'object' &&
  value !== null &&
  typeof (value as Partial<StagedArgument>).stagedArgument === 'number';

/** A command's value, and whether it changed anything (recorded an event). */
export interface CommandOutcome {
  value: unknown;
  changed: boolean;
}

export interface WorkerError {
  message: string;
  /** An AppError a command threw, to be thrown again on the request thread. */
  app?: AppErrorData;
  name?: string;
  stack?: string;
  code?: string;
  errcode?: number;
  errstr?: string;
}

export type WorkerReply =
  | { id: number; ok: true; result?: QueryOutcome | CommandOutcome }
  | { id: number; ok: false; error: WorkerError };

function describe(error: unknown): WorkerError {
  if (!(error instanceof Error)) return { message: String(error) };
  const { code, errcode, errstr } = error as Error & {
    code?: string;
    errcode?: number;
    errstr?: string;
  };
  // The stack says where in a command a bug is; the request thread logs it.
  return { message: error.message, code, errcode, errstr, name: error.name, stack: error.stack };
}

/** Work waiting for the writer's connection: a transaction to begin, a command, or one statement. */
type Unit =
  | { kind: 'transaction'; id: number; tx: number }
  | { kind: 'command'; id: number; name: string; ownerId: string; args: unknown[] }
  | { kind: 'statement'; id: number; sql: string; parameters: unknown[] };

/** `#active` while a command runs: no transaction of the request thread has this number. */
const commandRunning = -1;

/**
 * The one writer. Only one transaction holds the connection at a time (its queries interleave
 * with the request thread's decisions, or, for a command, it runs here whole); the others wait
 * their turn in `waiting`. A transaction that commits releases its savepoint and waits in
 * `unsynced` for the shared COMMIT, which runs as soon as nothing else is waiting, or when the
 * group is full.
 */
class Writer {
  readonly #db: SqliteConnection;
  readonly #send: (reply: WorkerReply) => void;
  readonly #limits: GroupLimits;
  readonly #waiting: Unit[] = [];
  /** Answers held back until the shared COMMIT is on disk. */
  #unsynced: WorkerReply[] = [];
  #groupOpen = false;
  #groupStartedAt = 0;
  #active: number | null = null;
  /** Set when the shared transaction was lost under the active one: it can only fail now. */
  #doomed: WorkerError | null = null;
  #commitQueued = false;
  /**
   * Loaded before the first command runs (readers, and a writer that runs none, never load the
   * modules). Once loaded, a command runs to its end without awaiting anything but its own
   * statements, so no other message is handled in the middle of one.
   */
  #runner: CommandRunner | null = null;
  #runnerLoading = false;
  #closed = false;
  /** Long list arguments received ahead of their commands, by key. */
  readonly #staged = new Map<number, unknown[]>();

  constructor(db: SqliteConnection, send: (reply: WorkerReply) => void, limits: GroupLimits) {
    this.#db = db;
    this.#send = send;
    this.#limits = limits;
  }

  handle(request: WorkerRequest): void {
    switch (request.op) {
      case 'begin':
        this.#waiting.push({ kind: 'transaction', id: request.id, tx: request.tx });
        break;
      case 'command':
        this.#waiting.push({ kind: 'command', ...request });
        break;
      case 'stage': {
        const items = this.#staged.get(request.key);
        if (items) for (const item of request.items) items.push(item);
        else this.#staged.set(request.key, request.items);
        this.#send({ id: request.id, ok: true });
        return;
      }
      case 'query':
        if (request.tx === undefined) {
          this.#waiting.push({ kind: 'statement', ...request });
        } else {
          this.#query(request.id, request.tx, request.sql, request.parameters);
          return;
        }
        break;
      case 'commit':
        this.#commit(request.id, request.tx);
        break;
      case 'rollback':
        this.#rollback(request.id, request.tx);
        break;
      case 'close':
        if (this.#groupOpen && this.#active === null) this.#commitGroup();
        this.#closed = true;
        this.#db.close();
        this.#send({ id: request.id, ok: true });
        return;
    }
    this.#pump();
  }

  #query(id: number, tx: number, sql: string, parameters: unknown[]): void {
    if (tx !== this.#active) {
      this.#send({ id, ok: false, error: { message: `transaction ${tx} is not active` } });
      return;
    }
    if (this.#doomed) {
      this.#send({ id, ok: false, error: this.#doomed });
      return;
    }
    try {
      this.#send({ id, ok: true, result: runStatement(this.#db, sql, parameters) });
    } catch (error) {
      this.#send({ id, ok: false, error: describe(error) });
      this.#checkGroupSurvived(error);
    }
  }

  /**
   * Ends `tx`, which must be the active transaction; null (and answered) when it is not. Returns
   * whether the shared transaction was lost under it, in which case nothing of it remains.
   */
  #end(id: number, tx: number): { lost: WorkerError | null } | null {
    if (tx !== this.#active) {
      this.#send({ id, ok: false, error: { message: `transaction ${tx} is not active` } });
      return null;
    }
    this.#active = null;
    const lost = this.#doomed;
    this.#doomed = null;
    return { lost };
  }

  #commit(id: number, tx: number): void {
    const ended = this.#end(id, tx);
    if (!ended) return;
    if (ended.lost) {
      this.#send({ id, ok: false, error: ended.lost });
      return;
    }
    try {
      this.#db.exec(`release t${tx}`);
      this.#unsynced.push({ id, ok: true });
    } catch (error) {
      this.#send({ id, ok: false, error: describe(error) });
      if (this.#db.isTransaction) this.#db.exec(`rollback to t${tx}; release t${tx}`);
      else this.#checkGroupSurvived(error);
    }
  }

  #rollback(id: number, tx: number): void {
    const ended = this.#end(id, tx);
    if (!ended) return;
    if (ended.lost) {
      this.#send({ id, ok: true });
      return;
    }
    try {
      this.#db.exec(`rollback to t${tx}; release t${tx}`);
      this.#send({ id, ok: true });
    } catch (error) {
      this.#send({ id, ok: false, error: describe(error) });
      this.#checkGroupSurvived(error);
    }
  }

  /** Starts waiting work while the connection is free, and commits when the group is done. */
  #pump(): void {
    if (this.#closed) return;
    while (this.#active === null && this.#waiting.length > 0 && !this.#groupFull()) {
      if (this.#waiting[0]?.kind === 'command' && !this.#runner) {
        // Loading takes a while and may not hold SQLite's lock: what the group holds goes now.
        this.#loadRunner();
        if (this.#groupOpen) this.#commitGroup();
        return;
      }
      const unit = this.#waiting.shift() as Unit;
      if (!this.#openGroup(unit.id)) {
        if (unit.kind === 'command') this.#takeArguments(unit);
        continue;
      }
      if (unit.kind === 'transaction') {
        this.#db.exec(`savepoint t${unit.tx}`);
        this.#active = unit.tx;
        this.#send({ id: unit.id, ok: true });
      } else if (unit.kind === 'command') {
        this.#active = commandRunning;
        void this.#runCommand(unit).finally(() => {
          this.#active = null;
          this.#pump();
        });
      } else {
        this.#runLoneStatement(unit);
      }
    }
    if (this.#active !== null || !this.#groupOpen) return;
    if (this.#groupFull()) {
      this.#commitGroup();
      this.#pump();
    } else if (!this.#commitQueued) {
      // Let work that has already arrived join this group before it is committed.
      this.#commitQueued = true;
      setImmediate(() => {
        this.#commitQueued = false;
        if (this.#active !== null || !this.#groupOpen) return;
        if (this.#waiting.length === 0) this.#commitGroup();
        this.#pump();
      });
    }
  }

  #groupFull(): boolean {
    return (
      this.#groupOpen &&
      (this.#unsynced.length >= this.#limits.units ||
        Date.now() - this.#groupStartedAt >= this.#limits.ms)
    );
  }

  #openGroup(id: number): boolean {
    if (this.#groupOpen) return true;
    try {
      this.#db.exec('begin immediate');
    } catch (error) {
      this.#send({ id, ok: false, error: describe(error) });
      return false;
    }
    this.#groupOpen = true;
    this.#groupStartedAt = Date.now();
    return true;
  }

  /** Loads the command modules, then starts the waiting work again. */
  #loadRunner(): void {
    if (this.#runnerLoading) return;
    this.#runnerLoading = true;
    import('./sqlite-commands.ts').then(
      ({ commandRunner }) => {
        this.#runner = commandRunner(this.#db);
        this.#pump();
      },
      (error: unknown) => {
        // The commands waiting fail; the next one tries again.
        this.#runnerLoading = false;
        const failure = describe(error);
        for (let index = this.#waiting.length - 1; index >= 0; index--) {
          const unit = this.#waiting[index] as Unit;
          if (unit.kind !== 'command') continue;
          this.#waiting.splice(index, 1);
          this.#takeArguments(unit);
          this.#send({ id: unit.id, ok: false, error: failure });
        }
        this.#pump();
      },
    );
  }

  /**
   * A command, whole: its value is answered with the group's commit, like a transaction's. A
   * command runs its statements here without waiting on anything else, so it holds the
   * connection only as long as it computes.
   */
  async #runCommand(unit: Extract<Unit, { kind: 'command' }>): Promise<void> {
    let reply: WorkerReply;
    let thrown: unknown = null;
    try {
      const runner = this.#runner;
      if (!runner) throw new Error('the commands are not loaded');
      const result = await runner(unit.name, unit.ownerId, this.#takeArguments(unit));
      reply = result.ok
        ? { id: unit.id, ok: true, result: { value: result.value, changed: result.changed } }
        : { id: unit.id, ok: false, error: { message: result.app.text.text, app: result.app } };
    } catch (error) {
      thrown = error;
      reply = { id: unit.id, ok: false, error: describe(error) };
    }
    // A full disk or an I/O error rolls back the whole group, whether the command threw it or
    // caught it: the others of the group fail too, and this one is never answered as saved.
    if (this.#groupOpen && !this.#db.isTransaction) {
      const lost = thrown ?? new Error('the transaction was lost under this command');
      this.#send({ id: unit.id, ok: false, error: describe(lost) });
      this.#groupLost(lost);
    } else if (reply.ok) {
      this.#unsynced.push(reply);
    } else {
      this.#send(reply);
    }
  }

  /** A command's arguments with the lists staged for it put back (and no longer kept here). */
  #takeArguments(unit: Extract<Unit, { kind: 'command' }>): unknown[] {
    return unit.args.map((arg) => {
      if (!isStaged(arg)) return arg;
      const items = this.#staged.get(arg.stagedArgument) ?? [];
      this.#staged.delete(arg.stagedArgument);
      return items;
    });
  }

  /** A statement outside any transaction: its own savepoint, answered with the group. */
  #runLoneStatement(unit: Extract<Unit, { kind: 'statement' }>): void {
    this.#db.exec('savepoint s');
    try {
      const result = runStatement(this.#db, unit.sql, unit.parameters);
      this.#db.exec('release s');
      this.#unsynced.push({ id: unit.id, ok: true, result });
    } catch (error) {
      this.#send({ id: unit.id, ok: false, error: describe(error) });
      if (this.#db.isTransaction) this.#db.exec('rollback to s; release s');
      else this.#groupLost(error);
    }
  }

  #commitGroup(): void {
    const answers = this.#unsynced;
    this.#unsynced = [];
    this.#groupOpen = false;
    try {
      this.#db.exec('commit');
    } catch (error) {
      const failure = describe(error);
      if (this.#db.isTransaction) this.#db.exec('rollback');
      for (const answer of answers) this.#send({ id: answer.id, ok: false, error: failure });
      return;
    }
    for (const answer of answers) this.#send(answer);
  }

  /**
   * Some errors (a full disk, an I/O error) make SQLite roll back the whole transaction, and with
   * it every transaction of the group that released its savepoint: those fail, unanswered until
   * now, and so does the rest of the active one.
   */
  #checkGroupSurvived(error: unknown): void {
    if (!this.#groupOpen || this.#db.isTransaction) return;
    if (this.#active !== null) this.#doomed = describe(error);
    this.#groupLost(error);
  }

  #groupLost(error: unknown): void {
    const failure = describe(error);
    for (const answer of this.#unsynced) this.#send({ id: answer.id, ok: false, error: failure });
    this.#unsynced = [];
    this.#groupOpen = false;
  }
}

/** A reader: a read-only connection that sees only committed data, one query at a time. */
function reader(db: SqliteConnection, send: (reply: WorkerReply) => void) {
  return (request: WorkerRequest) => {
    if (request.op === 'close') {
      db.close();
      send({ id: request.id, ok: true });
      return;
    }
    if (request.op !== 'query') {
      send({ id: request.id, ok: false, error: { message: 'a reader runs no transactions' } });
      return;
    }
    try {
      send({ id: request.id, ok: true, result: runStatement(db, request.sql, request.parameters) });
    } catch (error) {
      send({ id: request.id, ok: false, error: describe(error) });
    }
  };
}

/** The reply as sent, or the error that it cannot be. */
function cloneable(reply: WorkerReply): WorkerReply {
  try {
    structuredClone(reply);
    return reply;
  } catch (error) {
    return { id: reply.id, ok: false, error: describe(error) };
  }
}

if (parentPort) {
  const port = parentPort;
  const options = workerData as WorkerOptions;
  // Replies go back together once the current message's work is done (a batch of requests
  // from the request thread, or a group's commit): one message, one wake-up of that thread.
  let outbox: WorkerReply[] = [];
  const flush = () => {
    const replies = outbox;
    outbox = [];
    try {
      port.postMessage(replies);
    } catch {
      // A value that cannot be cloned (a bug in a command) fails its request, not the thread.
      port.postMessage(replies.map((reply) => cloneable(reply)));
    }
  };
  const send = (reply: WorkerReply) => {
    outbox.push(reply);
    if (outbox.length === 1) queueMicrotask(flush);
  };
  const db = openSqlite(options.file, { readOnly: options.role === 'reader' });
  let handle = reader(db, send);
  if (options.role === 'writer') {
    const writer = new Writer(db, send, options.group);
    handle = (request) => writer.handle(request);
  }
  port.on('message', (requests: WorkerRequest[]) => {
    for (const request of requests) handle(request);
  });
  port.postMessage('ready');
}
