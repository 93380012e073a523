// The one writer of an SQLite file, run in its worker thread (sqlite-worker.ts): transactions and
// commands wait their turn for the connection, and those that arrive together are committed in
// groups, each answered only once its group's COMMIT is on disk (docs/decisions/008-*.md).
import { WriterQueue } from './writer-queue.ts';
import type {
  CommandPlace,
  CommandRunner,
  LoadCommands,
  PreparedCommand,
} from './sqlite-commands.ts';
import { runStatement, type SqliteConnection } from './sqlite.ts';
import type { GroupLimits, WorkerError, WorkerReply, WorkerRequest } from './sqlite-worker.ts';

/** Bytes (an import's or a restore's body): the argument of a large write. */
const isLarge = (value: unknown): boolean => ArrayBuffer.isView(value);

/** An error as it can cross to the request thread. */
export function describeError(error: unknown): WorkerError {
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
  | {
      kind: 'command';
      id: number;
      name: string;
      ownerId: string;
      args: unknown[];
      /** Set once a large command's arguments were read aside (`#prepareAside`). */
      prepared?: PreparedCommand;
    }
  | { kind: 'statement'; id: number; sql: string; parameters: unknown[] };

/** `#active` while a command runs: no transaction of the request thread has this number. */
const commandRunning = -1;

/** Whose work a unit is, for the turns: only commands name their owner. */
const ownerOf = (unit: Unit): string => (unit.kind === 'command' ? unit.ownerId : '');

/** The answer to work that a close found waiting or under way. */
const closingError: WorkerError = { message: 'the database is closing' };

/**
 * How long (milliseconds) the writer works through waiting commands before it lets in the messages
 * that arrived meanwhile: until it does, another owner's write that has arrived is not yet
 * waiting, and cannot have its turn.
 */
const turnMs = 2;

/**
 * The one writer. Only one transaction holds the connection at a time (its queries interleave
 * with the request thread's decisions, or, for a command, it runs here whole); the others wait
 * their turn in `waiting`, taken one owner after another. A transaction that commits releases
 * its savepoint and waits in `unsynced` for the shared COMMIT, which runs as soon as nothing
 * else is waiting, or when the group is full.
 */
export class Writer {
  readonly #db: SqliteConnection;
  readonly #send: (reply: WorkerReply) => void;
  readonly #limits: GroupLimits;
  readonly #waiting = new WriterQueue<Unit>();
  /** Answers held back until the shared COMMIT is on disk. */
  #unsynced: WorkerReply[] = [];
  #groupOpen = false;
  #groupStartedAt = 0;
  #active: number | null = null;
  /** Set when the shared transaction was lost under the active one: it can only fail now. */
  #doomed: WorkerError | null = null;
  #commitQueued = false;
  /** Handed by the thread's entry; null where it was given none (no command is run then). */
  readonly #loadCommands: LoadCommands | null;
  /**
   * Loaded before the first command runs (readers, and a writer that runs none, never load the
   * modules). A command holds the connection until it ends: messages that arrive while it awaits
   * (its statements, or the import's turns between pieces of its work) wait in `waiting`.
   */
  #runner: CommandRunner | null = null;
  #runnerLoading = false;
  #closed = false;
  /** When the writer last took in messages (`turnMs`). */
  #turnStartedAt = performance.now();
  #pumpScheduled = false;

  constructor(
    db: SqliteConnection,
    send: (reply: WorkerReply) => void,
    limits: GroupLimits,
    loadCommands: LoadCommands | null,
  ) {
    this.#db = db;
    this.#send = send;
    this.#limits = limits;
    this.#loadCommands = loadCommands;
  }

  handle(request: WorkerRequest): void {
    if (this.#closed) {
      this.#send({ id: request.id, ok: false, error: { message: 'the database is closed' } });
      return;
    }
    switch (request.op) {
      case 'begin':
        this.#enqueue({ kind: 'transaction', id: request.id, tx: request.tx });
        break;
      case 'command':
        this.#enqueue({ kind: 'command', ...request });
        break;
      case 'query':
        if (request.tx === undefined) {
          this.#enqueue({ kind: 'statement', ...request });
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
      case 'close': {
        // A group is committed, unless work is still under way in it (a transaction still open,
        // an import between its pieces): closing the file then undoes the group, and every
        // transaction of it fails, as does that work when it next asks for anything.
        if (this.#groupOpen && this.#active === null) this.#commitGroup();
        else if (this.#groupOpen) this.#groupLost(new Error(closingError.message));
        // Work that arrived with the close, or waits behind that work, is refused, not left
        // unanswered.
        for (const unit of this.#waiting.takeWhere(() => true)) {
          this.#send({ id: unit.id, ok: false, error: closingError });
        }
        this.#closed = true;
        this.#db.close();
        this.#send({ id: request.id, ok: true });
        return;
      }
    }
    this.#pumpNextTurn();
  }

  #enqueue(unit: Unit): void {
    this.#waiting.push(ownerOf(unit), unit);
  }

  /**
   * Starts the waiting work in the thread's next turn, once every message that has arrived is
   * waiting too: run here, in the message's own turn, the work would go ahead of the messages
   * behind it, and those owners would never get their turns.
   */
  #pumpNextTurn(): void {
    if (this.#pumpScheduled) return;
    this.#pumpScheduled = true;
    setImmediate(() => {
      this.#pumpScheduled = false;
      this.#turnStartedAt = performance.now();
      this.#pump();
    });
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
      this.#send({ id, ok: false, error: describeError(error) });
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
      this.#send({ id, ok: false, error: describeError(error) });
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
      this.#send({ id, ok: false, error: describeError(error) });
      this.#checkGroupSurvived(error);
    }
  }

  /** Starts waiting work while the connection is free, and commits when the group is done. */
  #pump(): void {
    if (this.#closed) return;
    while (this.#active === null && this.#waiting.length > 0 && !this.#groupFull()) {
      if (this.#waiting.peek()?.kind === 'command' && !this.#runner) {
        // Loading takes a while and may not hold SQLite's lock: what the group holds goes now.
        this.#loadRunner();
        if (this.#groupOpen) this.#commitGroup();
        return;
      }
      const unit = this.#waiting.shift() as Unit;
      if (unit.kind === 'command' && !unit.prepared && unit.args.some(isLarge)) {
        this.#prepareAside(unit);
        continue;
      }
      if (this.#groupOpen && this.#startsOwnGroup(unit)) this.#commitGroup();
      const place: CommandPlace = this.#groupOpen ? 'savepoint' : 'group';
      if (!this.#openGroup(unit.id)) continue;
      if (unit.kind === 'transaction') {
        this.#db.exec(`savepoint t${unit.tx}`);
        this.#active = unit.tx;
        this.#send({ id: unit.id, ok: true });
      } else if (unit.kind === 'command') {
        this.#active = commandRunning;
        void this.#runCommand(unit, place).finally(() => {
          this.#active = null;
          this.#carryOn();
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
        this.#turnStartedAt = performance.now();
        if (this.#active !== null || !this.#groupOpen) return;
        if (this.#waiting.length === 0) this.#commitGroup();
        this.#pump();
      });
    }
  }

  /**
   * Goes on with the waiting work after a command. A command's end comes in the same turn of the
   * thread's event loop as its start, so after `turnMs` of them the next waits for a turn in which
   * the messages that arrived meanwhile are taken in, and their owners get their turns too.
   */
  #carryOn(): void {
    if (performance.now() - this.#turnStartedAt < turnMs) this.#pump();
    else this.#pumpNextTurn();
  }

  /** Whether `unit` must not join the open group: the group is committed before it runs. */
  #startsOwnGroup(unit: Unit): boolean {
    if (unit.kind !== 'command') return false;
    // A large argument (an import's or a restore's body): the command
    // runs at the top of the group's transaction, in no savepoint (sqlite-commands.ts says why).
    return unit.args.some(isLarge);
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
      this.#send({ id, ok: false, error: describeError(error) });
      return false;
    }
    this.#groupOpen = true;
    this.#groupStartedAt = Date.now();
    return true;
  }

  /** Loads the commands the thread's entry handed over, then starts the waiting work again. */
  #loadRunner(): void {
    if (this.#runnerLoading) return;
    this.#runnerLoading = true;
    const loadCommands = this.#loadCommands;
    Promise.all([
      import('./sqlite-commands.ts'),
      loadCommands
        ? loadCommands()
        : Promise.reject(new Error('this SQLite writer was given no commands to run')),
    ]).then(
      ([{ commandRunner }, run]) => {
        this.#runner = commandRunner(this.#db, run);
        this.#turnStartedAt = performance.now();
        this.#pump();
      },
      (error: unknown) => {
        // The commands waiting fail; the next one tries again.
        this.#runnerLoading = false;
        const failure = describeError(error);
        for (const unit of this.#waiting.takeWhere((waiting) => waiting.kind === 'command')) {
          this.#send({ id: unit.id, ok: false, error: failure });
        }
        this.#pump();
      },
    );
  }

  /**
   * Reads a large command's arguments (an import's or a restore's body: parsed and checked)
   * without holding the connection: between the turns its reading takes, other owners' work runs,
   * and the command then waits its owner's turn like any other. Held for the whole command, the
   * reading kept every other owner's payment waiting for it (docs/decisions/022-*.md).
   */
  #prepareAside(unit: Extract<Unit, { kind: 'command' }>): void {
    const runner = this.#runner;
    if (!runner) throw new Error('the commands are not loaded');
    runner.prepare(unit.name, unit.ownerId, unit.args).then(
      (prepared) => {
        if (this.#closed) {
          this.#send({ id: unit.id, ok: false, error: closingError });
        } else if (typeof prepared !== 'function') {
          // Refused on what it read (a body that is not an import): nothing to write.
          this.#send({
            id: unit.id,
            ok: false,
            error: { message: prepared.app.text.text, app: prepared.app },
          });
        } else {
          unit.prepared = prepared;
          this.#enqueue(unit);
          this.#pumpNextTurn();
        }
      },
      (error: unknown) => {
        this.#send({ id: unit.id, ok: false, error: describeError(error) });
      },
    );
  }

  /**
   * A command, whole: its value is answered with the group's commit, like a transaction's. A
   * command runs its statements here without waiting on anything else, so it holds the
   * connection only as long as it computes.
   */
  async #runCommand(unit: Extract<Unit, { kind: 'command' }>, place: CommandPlace): Promise<void> {
    let reply: WorkerReply;
    let thrown: unknown = null;
    let changed = false;
    try {
      const runner = this.#runner;
      if (!runner) throw new Error('the commands are not loaded');
      const prepared = unit.prepared ?? (await runner.prepare(unit.name, unit.ownerId, unit.args));
      const result = await runner.run(prepared, place);
      changed = result.ok && result.changed;
      reply = result.ok
        ? { id: unit.id, ok: true, result: { value: result.value, changed: result.changed } }
        : { id: unit.id, ok: false, error: { message: result.app.text.text, app: result.app } };
    } catch (error) {
      thrown = error;
      reply = { id: unit.id, ok: false, error: describeError(error) };
    }
    // Closed while the command waited between pieces of its work: its group is gone, and with
    // it whatever the command did.
    if (this.#closed) {
      this.#send(reply.ok ? { id: unit.id, ok: false, error: closingError } : reply);
      return;
    }
    // At the top of its group, a command that failed or changed nothing is undone by rolling back
    // the group's transaction, which holds nothing else: the group simply ends. (Its driver leaves
    // that to this writer, so a transaction SQLite lost under the command is told apart below.)
    if (place === 'group' && !changed && this.#db.isTransaction) {
      this.#db.exec('rollback');
      this.#groupOpen = false;
      this.#send(reply);
      return;
    }
    // A full disk or an I/O error rolls back the whole group, whether the command threw it or
    // caught it: the others of the group fail too, and this one is never answered as saved.
    if (this.#groupOpen && !this.#db.isTransaction) {
      const lost = thrown ?? new Error('the transaction was lost under this command');
      this.#send({ id: unit.id, ok: false, error: describeError(lost) });
      this.#groupLost(lost);
    } else if (reply.ok) {
      this.#unsynced.push(reply);
    } else {
      this.#send(reply);
    }
  }

  /** A statement outside any transaction: its own savepoint, answered with the group. */
  #runLoneStatement(unit: Extract<Unit, { kind: 'statement' }>): void {
    this.#db.exec('savepoint s');
    try {
      const result = runStatement(this.#db, unit.sql, unit.parameters);
      this.#db.exec('release s');
      this.#unsynced.push({ id: unit.id, ok: true, result });
    } catch (error) {
      this.#send({ id: unit.id, ok: false, error: describeError(error) });
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
      const failure = describeError(error);
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
    if (this.#active !== null) this.#doomed = describeError(error);
    this.#groupLost(error);
  }

  #groupLost(error: unknown): void {
    const failure = describeError(error);
    for (const answer of this.#unsynced) this.#send({ id: answer.id, ok: false, error: failure });
    this.#unsynced = [];
    this.#groupOpen = false;
  }
}
