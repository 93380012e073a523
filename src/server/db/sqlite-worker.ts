// A worker thread that holds one node:sqlite connection, so no query runs on the thread that
// serves requests. The writer also commits transactions in groups (docs/decisions/008-*.md):
// each transaction runs in a savepoint of one shared transaction, and its caller is answered
// only after the shared COMMIT (synced by synchronous=FULL) has returned.
import { parentPort, workerData } from 'node:worker_threads';
import { openSqlite, type SqliteConnection } from './sqlite.ts';

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
  | { id: number; op: 'close' };

export interface QueryOutcome {
  rows: unknown[];
  changes?: number | bigint;
  lastInsertRowid?: number | bigint;
}

export interface WorkerError {
  message: string;
  code?: string;
  errcode?: number;
  errstr?: string;
}

export type WorkerReply =
  { id: number; ok: true; result?: QueryOutcome } | { id: number; ok: false; error: WorkerError };

function describe(error: unknown): WorkerError {
  if (!(error instanceof Error)) return { message: String(error) };
  const { code, errcode, errstr } = error as Error & {
    code?: string;
    errcode?: number;
    errstr?: string;
  };
  return { message: error.message, code, errcode, errstr };
}

function execute(db: SqliteConnection, sql: string, parameters: unknown[]): QueryOutcome {
  const statement = db.prepare(sql);
  if (statement.reader) return { rows: statement.all(parameters) };
  const { changes, lastInsertRowid } = statement.run(parameters);
  return { rows: [], changes, lastInsertRowid };
}

/** Work waiting for the writer's connection: a transaction to begin, or one lone statement. */
type Unit =
  | { kind: 'transaction'; id: number; tx: number }
  | { kind: 'statement'; id: number; sql: string; parameters: unknown[] };

/**
 * The one writer. Only one transaction holds the connection at a time (its queries interleave
 * with the request thread's decisions); the others wait their turn in `waiting`. A transaction
 * that commits releases its savepoint and waits in `unsynced` for the shared COMMIT, which runs
 * as soon as nothing else is waiting, or when the group is full.
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
      this.#send({ id, ok: true, result: execute(this.#db, sql, parameters) });
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
    while (this.#active === null && this.#waiting.length > 0 && !this.#groupFull()) {
      const unit = this.#waiting.shift() as Unit;
      if (!this.#openGroup(unit.id)) continue;
      if (unit.kind === 'transaction') {
        this.#db.exec(`savepoint t${unit.tx}`);
        this.#active = unit.tx;
        this.#send({ id: unit.id, ok: true });
      } else {
        this.#runStatement(unit);
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

  /** A statement outside any transaction: its own savepoint, answered with the group. */
  #runStatement(unit: Extract<Unit, { kind: 'statement' }>): void {
    this.#db.exec('savepoint s');
    try {
      const result = execute(this.#db, unit.sql, unit.parameters);
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
      send({ id: request.id, ok: true, result: execute(db, request.sql, request.parameters) });
    } catch (error) {
      send({ id: request.id, ok: false, error: describe(error) });
    }
  };
}

if (parentPort) {
  const port = parentPort;
  const options = workerData as WorkerOptions;
  const send = (reply: WorkerReply) => port.postMessage(reply);
  const db = openSqlite(options.file, { readOnly: options.role === 'reader' });
  let handle = reader(db, send);
  if (options.role === 'writer') {
    const writer = new Writer(db, send, options.group);
    handle = (request) => writer.handle(request);
  }
  port.on('message', handle);
  port.postMessage('ready');
}
