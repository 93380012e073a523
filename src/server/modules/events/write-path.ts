import type { Kysely, Transaction } from 'kysely';
import type { Database, Db, Dialect } from '../../db/database.ts';
import {
  holdOwner,
  insertEvents,
  lockOwnerForRemoval,
  lockOwnerLog,
  type NewEvent,
} from './events.repository.ts';
import type { ChangeFeed } from './feed.ts';
import { AppError, unauthenticated } from '../../errors.ts';
import { OwnerGate } from './owner-gate.ts';

export type { NewEvent };

/** Records the events of a change, inside its transaction. */
export type RecordEvents = (events: NewEvent | readonly NewEvent[]) => Promise<void>;

export interface ChangeContext {
  trx: Transaction<Database>;
  record: RecordEvents;
  /** The change's one moment (epoch milliseconds): rows and events carry the same time. */
  now: number;
}

/** Returned by a change that found nothing to do: what it wrote is rolled back, nobody is woken. */
export class Unchanged<T> extends Error {
  readonly value: T;
  constructor(value: T) {
    super('unchanged');
    this.value = value;
  }
}

export const unchanged = <T>(value: T) => new Unchanged(value);

type Work<T> = (context: ChangeContext) => Promise<T | Unchanged<T>>;

/** How a change ended: its value, and whether it committed anything (an event). */
export interface ChangeOutcome<T> {
  value: T;
  changed: boolean;
}

/**
 * One change's transaction: `work` writes the rows and records the events that describe them
 * (once it records its events, the owner's other writers wait their turn until it commits). A
 * change that records no event is refused (and rolled back): the client list's kept answers,
 * the live streams and the history all rely on one. Runs where the connection is: the request
 * thread, or SQLite's writer thread for a named command (`command` below).
 */
export async function runChange<T>(
  kysely: Kysely<Database>,
  dialect: Dialect,
  ownerId: string,
  work: Work<T>,
  announce: (trx: Transaction<Database>, ownerId: string) => Promise<void> = async () => {},
): Promise<ChangeOutcome<T>> {
  const now = Date.now();
  const outcome = await kysely
    .transaction()
    .execute(async (trx) => {
      // The credential was checked before the change began; the account may have gone since.
      if (!(await holdOwner(trx, dialect, ownerId))) throw unauthenticated();
      let recorded = 0;
      const record: RecordEvents = async (events) => {
        const list = Array.isArray(events) ? events : [events as NewEvent];
        // Taken as late as possible: a command refused on what it read never waits its turn.
        if (recorded === 0) await lockOwnerLog(trx, dialect, ownerId);
        recorded += list.length;
        await insertEvents(trx, ownerId, now, list);
      };
      const result = await work({ trx, record, now });
      // Thrown to roll back whatever an unchanged command may have written.
      if (result instanceof Unchanged) throw result;
      if (recorded === 0) throw new Error('a change of an owner’s data must record an event');
      await announce(trx, ownerId);
      return result;
    })
    .catch((error: unknown) => {
      if (error instanceof Unchanged) return error as Unchanged<T>;
      throw error;
    });
  if (outcome instanceof Unchanged) return { value: outcome.value, changed: false };
  return { value: outcome, changed: true };
}

/** A command's work, given the owner and the arguments its callers pass. */
export type CommandWork<A extends unknown[], T> = (
  context: ChangeContext,
  ownerId: string,
  ...args: A
) => Promise<T | Unchanged<T>>;

/** Each keeps its own argument types at its definition (`command`). */
const commands = new Map<string, CommandWork<unknown[], unknown>>();

function register<A extends unknown[], T>(name: string, work: CommandWork<A, T>): void {
  if (commands.has(name)) throw new Error(`two commands are named ${name}`);
  commands.set(name, work as CommandWork<unknown[], unknown>);
}

/**
 * A command of the write path, known by its name so that on SQLite it runs in the writer thread,
 * beside the connection: its statements then cost no trip between threads, and the writer holds
 * the connection only as long as the command computes (docs/decisions/014-*.md). Its arguments
 * and its value must survive a structured clone (plain data). Returns the function callers use.
 * The writer thread knows the commands of the modules `../../write-commands.ts` loads.
 */
export function command<A extends unknown[], T>(
  name: string,
  work: CommandWork<A, T>,
): (writes: WritePath, ownerId: string, ...args: A) => Promise<T> {
  register(name, work);
  return (writes, ownerId, ...args) => writes.run(name, ownerId, args, work);
}

/** A reading command's work, given the input its `read` made of the caller's arguments. */
export type ReadWork<I, T> = (
  context: ChangeContext,
  ownerId: string,
  input: I,
) => Promise<T | Unchanged<T>>;

/**
 * A command whose arguments take long to read (an import's or a restore's body, as bytes): `read`
 * makes them the work's input. In SQLite's writer thread it runs there, just before the work;
 * where commands run on the request thread (PostgreSQL), before the transaction begins, so that
 * no connection waits in an open transaction while a body of up to 64 MiB is parsed and checked.
 */
export function readingCommand<A extends unknown[], I, T>(
  name: string,
  read: (...args: A) => Promise<I>,
  work: ReadWork<I, T>,
): (writes: WritePath, ownerId: string, ...args: A) => Promise<T> {
  register<A, T>(name, async (context, ownerId, ...args) =>
    work(context, ownerId, await read(...args)),
  );
  return (writes, ownerId, ...args) => writes.runReading(name, ownerId, args, read, work);
}

/** The command of this name: SQLite's writer thread runs it by name. */
export function findCommand(name: string): CommandWork<unknown[], unknown> | undefined {
  return commands.get(name);
}

/**
 * The one way an owner's data changes: every change runs `runChange` (rows and events in one
 * transaction), and the owner's live streams are woken only by its commit.
 */
export class WritePath {
  readonly #db: Db;
  readonly #feed: ChangeFeed;
  /**
   * PostgreSQL: two of an owner's changes at a time on this instance, each holding a connection
   * (one committing, one reading before the owner's lock); the rest wait without one, for as long
   * as the pool would have let them wait for a connection (database.ts).
   */
  readonly #gate = new OwnerGate(
    2,
    5000,
    () =>
      new AppError(
        429,
        'rate_limited',
        'Too many changes of this account are waiting; try again in a moment',
        { headers: { 'retry-after': '5' } },
      ),
  );

  constructor(db: Db, feed: ChangeFeed) {
    this.#db = db;
    this.#feed = feed;
  }

  async change<T>(ownerId: string, work: Work<T>): Promise<T> {
    const run = () =>
      runChange(this.#db.kysely, this.#db.dialect, ownerId, work, (trx, owner) =>
        this.#feed.announce(trx, owner),
      );
    // SQLite's changes here are the request thread's transactions, which wait for the writer.
    return this.#ended(
      ownerId,
      this.#db.dialect === 'postgres' ? this.#gate.run(ownerId, run) : run(),
    );
  }

  /** A named command (`command` above): in SQLite's writer thread, else as `change` does. */
  async run<A extends unknown[], T>(
    name: string,
    ownerId: string,
    args: A,
    work: CommandWork<A, T>,
  ): Promise<T> {
    const sqlite = this.#db.sqlite;
    if (!sqlite) return this.change(ownerId, (context) => work(context, ownerId, ...args));
    return this.#ended(ownerId, sqlite.runCommand<T>(name, ownerId, args));
  }

  /** A reading command (`readingCommand` above): read first where it runs on this thread. */
  async runReading<A extends unknown[], I, T>(
    name: string,
    ownerId: string,
    args: A,
    read: (...args: A) => Promise<I>,
    work: ReadWork<I, T>,
  ): Promise<T> {
    const sqlite = this.#db.sqlite;
    if (sqlite) return this.#ended(ownerId, sqlite.runCommand<T>(name, ownerId, args));
    const input = await read(...args);
    return this.change(ownerId, (context) => work(context, ownerId, input));
  }

  /**
   * A change's value once it has ended, and what follows a change of this owner's before its
   * answer: also after a failure, since a commit may be on disk though its answer was lost (the
   * writer thread stopped after it).
   */
  async #ended<T>(ownerId: string, change: Promise<ChangeOutcome<T>>): Promise<T> {
    let changed = false;
    try {
      const outcome = await change;
      changed = outcome.changed;
      return outcome.value;
    } finally {
      // The next read of the owner's latest event id sees the change (database.ts `kept`).
      this.#db.kept?.latestEventIds.forget(ownerId);
      // The fan-out to live streams runs after the answer's turn: the write never waits for it.
      if (changed) this.#feed.committed(ownerId);
    }
  }

  /**
   * Removes an owner altogether (their account deleted): `work` deletes the rows, the log
   * included, so there is no event to record. It takes the owner's row first, as every change
   * does: the changes already running commit before it, and those that come after find no owner
   * and answer 401 (`holdOwner`). After the commit this instance's streams of the owner end at
   * once (on other instances at their next heartbeat, the session being gone).
   */
  async removeOwner<T>(
    ownerId: string,
    work: (trx: Transaction<Database>) => Promise<T>,
  ): Promise<T> {
    const result = await this.#db.kysely.transaction().execute(async (trx) => {
      await lockOwnerForRemoval(trx, this.#db.dialect, ownerId);
      return work(trx);
    });
    this.#db.kept?.latestEventIds.forget(ownerId);
    this.#feed.endOwner(ownerId);
    return result;
  }
}
