// Group commit: each answered only once its group's COMMIT is on disk (decision 008).
import type { Actor } from '../actor.ts';
import type { CommandPlace, CommandRunner, LoadCommands, PreparedCommand } from './commands.ts';
import { runStatement, type SqliteConnection } from './connection.ts';
import {
  describeError,
  type GroupLimits,
  type WorkerError,
  type WorkerReply,
  type WorkerRequest,
} from './protocol.ts';
import { WriterQueue } from './writer-queue.ts';

const isLarge = (value: unknown): boolean => ArrayBuffer.isView(value);

type Unit =
  | { kind: 'transaction'; id: number; tx: number }
  | {
      kind: 'command';
      id: number;
      name: string;
      bookId: string;
      args: unknown[];
      actor: Actor | null;
      prepared?: PreparedCommand;
    }
  | { kind: 'statement'; id: number; sql: string; parameters: unknown[] };

const commandRunning = -1;

const ownerOf = (unit: Unit): string => (unit.kind === 'command' ? unit.bookId : '');

const closingError: WorkerError = { message: 'the database is closing' };

/** Until the writer takes in new messages, another owner's write cannot have its turn. */
const turnMs = 2;

export class Writer {
  readonly #db: SqliteConnection;
  readonly #send: (reply: WorkerReply) => void;
  readonly #limits: GroupLimits;
  readonly #waiting = new WriterQueue<Unit>();
  #unsynced: WorkerReply[] = [];
  #groupOpen = false;
  #groupStartedAt = 0;
  #active: number | null = null;
  #doomed: WorkerError | null = null;
  #commitQueued = false;
  readonly #loadCommands: LoadCommands | null;
  /** Loaded lazily: readers, and a writer that runs no command, never load the modules. */
  #runner: CommandRunner | null = null;
  #runnerLoading = false;
  #closed = false;
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
        // With work still under way in the group, closing the file undoes it: all of it fails.
        if (this.#groupOpen && this.#active === null) this.#commitGroup();
        else if (this.#groupOpen) this.#groupLost(new Error(closingError.message));
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

  /** Run in the message's own turn, work would go ahead of the owners whose messages are behind. */
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

  /** A command ends in the turn it started, so after `turnMs` of them new messages are let in. */
  #carryOn(): void {
    if (performance.now() - this.#turnStartedAt < turnMs) this.#pump();
    else this.#pumpNextTurn();
  }

  /** A large command runs in no savepoint, for memory (commands.ts). */
  #startsOwnGroup(unit: Unit): boolean {
    if (unit.kind !== 'command') return false;
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

  #loadRunner(): void {
    if (this.#runnerLoading) return;
    this.#runnerLoading = true;
    const loadCommands = this.#loadCommands;
    Promise.all([
      import('./commands.ts'),
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

  /** Read without holding the connection, so other owners' work runs meanwhile (decision 023). */
  #prepareAside(unit: Extract<Unit, { kind: 'command' }>): void {
    const runner = this.#runner;
    if (!runner) throw new Error('the commands are not loaded');
    runner.prepare(unit.name, unit.bookId, unit.args, unit.actor).then(
      (prepared) => {
        if (this.#closed) {
          this.#send({ id: unit.id, ok: false, error: closingError });
        } else if (typeof prepared !== 'function') {
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

  async #runCommand(unit: Extract<Unit, { kind: 'command' }>, place: CommandPlace): Promise<void> {
    let reply: WorkerReply;
    let thrown: unknown = null;
    let changed = false;
    try {
      const runner = this.#runner;
      if (!runner) throw new Error('the commands are not loaded');
      const prepared =
        unit.prepared ?? (await runner.prepare(unit.name, unit.bookId, unit.args, unit.actor));
      const result = await runner.run(prepared, place);
      changed = result.ok && result.changed;
      reply = result.ok
        ? { id: unit.id, ok: true, result: { value: result.value, changed: result.changed } }
        : { id: unit.id, ok: false, error: { message: result.app.text.text, app: result.app } };
    } catch (error) {
      thrown = error;
      reply = { id: unit.id, ok: false, error: describeError(error) };
    }
    // Closed while the command awaited: its group, and its work, are gone.
    if (this.#closed) {
      this.#send(reply.ok ? { id: unit.id, ok: false, error: closingError } : reply);
      return;
    }
    // At the top of its group, the group's transaction holds nothing else: roll it back.
    if (place === 'group' && !changed && this.#db.isTransaction) {
      this.#db.exec('rollback');
      this.#groupOpen = false;
      this.#send(reply);
      return;
    }
    // A full disk or an I/O error lost the whole group, even if the command caught it.
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

  /** A full disk or an I/O error rolls back the whole group, released savepoints included. */
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
