import type { Kysely, Transaction } from 'kysely';
import type { Database, Db, Dialect } from '../../db/database.ts';
import type { PrepareCommand } from '../../db/sqlite-commands.ts';
import {
  holdOwner,
  insertEvents,
  lockOwnerForRemoval,
  lockOwnerLog,
  type NewEvent,
} from './events.repository.ts';
import type { ChangeFeed } from './feed.ts';
import { AppError, unauthenticated } from '../../errors.ts';
import { OwnerConcurrencyLimit } from './owner-concurrency-limit.ts';

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

export type Work<T> = (context: ChangeContext) => Promise<T | Unchanged<T>>;

/** How a change ended: its value, and whether it committed anything (an event). */
export interface ChangeOutcome<T> {
  value: T;
  changed: boolean;
}

/**
 * One change's transaction: `work` writes the rows and records the events that describe them
 * (once it records its events, the owner's other writers wait their turn until it commits). A
 * change that records no event is refused (and rolled back): the live streams and the history
 * rely on one. Runs where the connection is: the request
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

/**
 * A command of the write path: `app.writes.run(command, ownerId, ...args)` runs it. On SQLite it
 * runs in the writer thread, beside the connection, so its statements cost no trip between
 * threads (docs/decisions/014-*.md); its arguments and value must survive a structured clone
 * (plain data). Only its `name` crosses to that thread, where the same command is found in the
 * table `src/server/write-commands.ts` hands the writer: `WritePath` accepts only the commands of
 * that table, so a command missing from it does not compile.
 */
export interface Command<N extends string, A extends unknown[], T> {
  readonly name: N;
  /**
   * The change's work, made of the caller's arguments. A reading command parses them here: on
   * the request thread (PostgreSQL) before its transaction begins, in the writer just before the
   * work. A method, so that a table may hold commands of any arguments.
   */
  prepare(ownerId: string, ...args: A): Promise<Work<T>>;
}

/** Any command, whatever its name, arguments and value. */
export type AnyCommand = Command<string, unknown[], unknown>;

type ArgumentsOf<C> = C extends Command<string, infer A, unknown> ? A : never;
type ValueOf<C> = C extends Command<string, unknown[], infer T> ? T : never;

export function command<N extends string, A extends unknown[], T>(
  name: N,
  work: CommandWork<A, T>,
): Command<N, A, T> {
  return {
    name,
    prepare:
      async (ownerId, ...args) =>
      (context) =>
        work(context, ownerId, ...args),
  };
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
export function readingCommand<N extends string, A extends unknown[], I, T>(
  name: N,
  read: (...args: A) => Promise<I>,
  work: ReadWork<I, T>,
): Command<N, A, T> {
  return {
    name,
    prepare: async (ownerId, ...args) => {
      const input = await read(...args);
      return (context) => work(context, ownerId, input);
    },
  };
}

/**
 * What SQLite's writer thread prepares a command with (db/sqlite-commands.ts): the commands of
 * `table`, found by the name that crossed with the message.
 */
export function runnerOf(table: readonly AnyCommand[]): PrepareCommand {
  const byName = new Map<string, AnyCommand>();
  for (const entry of table) {
    if (byName.has(entry.name)) throw new Error(`two commands are named ${entry.name}`);
    byName.set(entry.name, entry);
  }
  return async (name, ownerId, args) => {
    const found = byName.get(name);
    // Only a name sent by hand can miss: `WritePath.run` takes the table's commands alone.
    if (!found) throw new Error(`the SQLite writer knows no command named ${name}`);
    // Read before the transaction, as on PostgreSQL: the writer reads a large body while other
    // owners' work holds the connection (db/sqlite-writer.ts).
    const work = await found.prepare(ownerId, ...args);
    return (kysely) => runChange(kysely, 'sqlite', ownerId, work);
  };
}

/**
 * The one way an owner's data changes: every change runs `runChange` (rows and events in one
 * transaction), and the owner's live streams are woken only by its commit.
 */
export class WritePath<Commands extends AnyCommand> {
  readonly #db: Db;
  readonly #feed: ChangeFeed;
  /**
   * PostgreSQL: two of an owner's changes at a time on this instance, each holding a connection
   * (one committing, one reading before the owner's lock); the rest wait without one, for as long
   * as the pool would have let them wait for a connection (database.ts).
   */
  readonly #changesPerOwner = new OwnerConcurrencyLimit(
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
      this.#db.dialect === 'postgres' ? this.#changesPerOwner.run(ownerId, run) : run(),
    );
  }

  /**
   * A command of the table this write path was made for (`command` above): in SQLite's writer
   * thread, else on this thread as `change` does, its arguments read before the transaction.
   */
  async run<C extends Commands>(
    command: C,
    ownerId: string,
    ...args: ArgumentsOf<C>
  ): Promise<ValueOf<C>> {
    const sqlite = this.#db.sqlite;
    if (sqlite)
      return this.#ended(ownerId, sqlite.runCommand<ValueOf<C>>(command.name, ownerId, args));
    const work = (await command.prepare(ownerId, ...args)) as Work<ValueOf<C>>;
    return this.change(ownerId, work);
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
    this.#feed.endOwner(ownerId);
    return result;
  }
}
