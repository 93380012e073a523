import type { Kysely, Transaction } from 'kysely';
import type { Actor } from '../../db/actor.ts';
import type { Database, Db, Dialect, Executor } from '../../db/database.ts';
import type { PrepareCommand } from '../../db/sqlite/commands.ts';
import {
  holdBook,
  insertEvents,
  lockBookForRemoval,
  lockOwnerLog,
  type NewEvent,
} from './events.repository.ts';
import type { EventAction } from '../../../shared/schemas/events.ts';
import type { ChangeFeed } from './feed.ts';
import { AppError, unauthenticated } from '../../errors.ts';
import { OwnerConcurrencyLimit } from './owner-concurrency-limit.ts';

export type { NewEvent };

/**
 * Whose data a change is, and who made it: a book's id alone for what nobody made at that moment
 * (the reminder sender, a client's link), or the book with the person acting in it.
 */
export type WriteScope = string | { id: string; actor: Actor };

/** The lock date of the book a change holds, read with the hold (decision 046). */
const heldLockDates = new WeakMap<Executor, string | null>();

/** The day the book of this change is closed up to; undefined outside the write path. */
export const heldLockDate = (db: Executor) => heldLockDates.get(db);

const bookOf = (scope: WriteScope) => (typeof scope === 'string' ? scope : scope.id);
const actorOf = (scope: WriteScope) => (typeof scope === 'string' ? null : scope.actor);

type RecordEvents = (events: NewEvent | readonly NewEvent[]) => Promise<void>;

export interface ChangeContext {
  trx: Transaction<Database>;
  record: RecordEvents;
  /** Who makes the change: the person a new entry is recorded by; null for nobody's. */
  actor: Actor | null;
  /** Rows and events carry the same time. */
  now: number;
}

/** What the change wrote is rolled back, and nobody is woken. */
export class Unchanged<T> extends Error {
  readonly value: T;
  constructor(value: T) {
    super('unchanged');
    this.value = value;
  }
}

export const unchanged = <T>(value: T) => new Unchanged(value);

export type Work<T> = (context: ChangeContext) => Promise<T | Unchanged<T>>;

export interface ChangeOutcome<T> {
  value: T;
  changed: boolean;
}

/**
 * Runs in every change's transaction, after its work and events, with the actions it recorded:
 * what is kept about an owner's data outside it (when the reminder sender reads the owner's
 * charges again) stays true. Handed down from the composition root (write-commands.ts).
 */
export type AfterChange = (
  trx: Transaction<Database>,
  bookId: string,
  actions: ReadonlySet<EventAction>,
) => Promise<void>;

/**
 * A change without an event is refused: the live streams and the history rely on one. A staging
 * write (`stagingCommand`) is the exception: it writes only under a staging account no owner
 * reads, so it records no event, runs no `afterChange` and wakes nobody (decision 042).
 */
async function runChange<T>(
  kysely: Kysely<Database>,
  dialect: Dialect,
  bookId: string,
  work: Work<T>,
  afterChange: AfterChange,
  announce: (trx: Transaction<Database>, bookId: string) => Promise<void> = async () => {},
  staging = false,
  actor: Actor | null = null,
): Promise<ChangeOutcome<T>> {
  const now = Date.now();
  const outcome = await kysely
    .transaction()
    .execute(async (trx) => {
      // On PostgreSQL every change of an owner writes the owner's kept sums (decision 035), so
      // changes of one owner run one at a time from their first write anyway. Waiting for that
      // turn before holding the account's row means the waiting changes hold nothing the
      // account's deletion waits for: held first, they kept it waiting past its timeout.
      if (dialect === 'postgres') await lockOwnerLog(trx, dialect, bookId);
      // The book may have gone since the credential was checked.
      const held = await holdBook(trx, dialect, bookId);
      if (!held) throw unauthenticated();
      heldLockDates.set(trx, held.lockDate);
      let recorded = 0;
      const actions = new Set<EventAction>();
      const record: RecordEvents = async (events) => {
        if (staging) throw new Error('a staging write records no event: its publishing does');
        const list: readonly NewEvent[] = Array.isArray(events) ? events : [events as NewEvent];
        // Taken as late as possible: a command refused on what it read never waits its turn.
        if (recorded === 0) await lockOwnerLog(trx, dialect, bookId);
        recorded += list.length;
        for (const event of list) actions.add(event.action);
        await insertEvents(trx, bookId, now, list, actor);
      };
      const result = await work({ trx, record, now, actor });
      if (result instanceof Unchanged) throw result;
      if (staging) return result;
      if (recorded === 0) throw new Error('a change of an owner’s data must record an event');
      // After the owner's log is locked (by the first event), as every change takes its locks.
      await afterChange(trx, bookId, actions);
      await announce(trx, bookId);
      return result;
    })
    .catch((error: unknown) => {
      if (error instanceof Unchanged) return error as Unchanged<T>;
      throw error;
    });
  if (outcome instanceof Unchanged) return { value: outcome.value, changed: false };
  return { value: outcome, changed: true };
}

export type CommandWork<A extends unknown[], T> = (
  context: ChangeContext,
  bookId: string,
  ...args: A
) => Promise<T | Unchanged<T>>;

/**
 * Arguments and value must survive a structured clone to SQLite's writer (decision 014). A
 * command has no name of its own: its name is its key in the table of write commands
 * (src/server/write-commands.ts), `<module>.<exported name>`.
 */
export interface Command<A extends unknown[], T> {
  /** A method, so that a table may hold commands of any arguments. */
  prepare(bookId: string, ...args: A): Promise<Work<T>>;
  /** Writes only under a staging account: no event, nobody woken (`stagingCommand`). */
  readonly staging?: true;
}

export type AnyCommand = Command<unknown[], unknown>;

/** The commands by name; a name crosses to SQLite's writer, where the same table answers it. */
export type CommandTable = Readonly<Record<`${string}.${string}`, AnyCommand>>;

type ArgumentsOf<C> = C extends Command<infer A, unknown> ? A : never;
type ValueOf<C> = C extends Command<unknown[], infer T> ? T : never;

export function command<A extends unknown[], T>(work: CommandWork<A, T>): Command<A, T> {
  return {
    prepare:
      async (bookId, ...args) =>
      (context) =>
        work(context, bookId, ...args),
  };
}

/**
 * One slice of a large change, written under a staging account that no owner's read sees and
 * queued in the owner's turn, so other owners' writes run between slices; a command of the
 * write path (`command`) makes the slices the owner's and records their events (decision 042).
 */
export function stagingCommand<A extends unknown[], T>(
  work: (context: Omit<ChangeContext, 'record'>, bookId: string, ...args: A) => Promise<T>,
): Command<A, T> {
  return { ...command(work), staging: true };
}

export type ReadWork<I, T> = (
  context: ChangeContext,
  bookId: string,
  input: I,
) => Promise<T | Unchanged<T>>;

/** `read` runs before the transaction, so no connection waits while a 64 MiB body is parsed. */
export function readingCommand<A extends unknown[], I, T>(
  read: (...args: A) => Promise<I>,
  work: ReadWork<I, T>,
): Command<A, T> {
  return {
    prepare: async (bookId, ...args) => {
      const input = await read(...args);
      return (context) => work(context, bookId, input);
    },
  };
}

/** What SQLite's writer thread runs a command by: its name, looked up in the same table. */
export function runnerOf(table: CommandTable, afterChange: AfterChange): PrepareCommand {
  return async (name, bookId, args, actor) => {
    const found = Object.hasOwn(table, name) ? table[name as keyof CommandTable] : undefined;
    if (!found) throw new Error(`the SQLite writer knows no command named ${name}`);
    const work = await found.prepare(bookId, ...args);
    return (kysely) =>
      runChange(kysely, 'sqlite', bookId, work, afterChange, undefined, found.staging, actor);
  };
}

/** Each command's name, by the command: so a route hands the command itself, never its name. */
function namesOf(table: CommandTable): Map<AnyCommand, string> {
  const names = new Map<AnyCommand, string>();
  for (const [name, entry] of Object.entries(table)) {
    const other = names.get(entry);
    if (other) throw new Error(`one command is in the table twice: ${other} and ${name}`);
    names.set(entry, name);
  }
  return names;
}

export class WritePath<Commands extends AnyCommand> {
  readonly #db: Db;
  readonly #feed: ChangeFeed;
  readonly #afterChange: AfterChange;
  readonly #names: Map<AnyCommand, string>;
  /** PostgreSQL: one committing, one reading; the rest wait without holding a connection. */
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

  constructor(db: Db, feed: ChangeFeed, commands: CommandTable, afterChange: AfterChange) {
    this.#db = db;
    this.#feed = feed;
    this.#names = namesOf(commands);
    this.#afterChange = afterChange;
  }

  async change<T>(scope: WriteScope, work: Work<T>, staging = false): Promise<T> {
    const bookId = bookOf(scope);
    const run = () =>
      runChange(
        this.#db.kysely,
        this.#db.dialect,
        bookId,
        work,
        this.#afterChange,
        (trx, owner) => this.#feed.announce(trx, owner),
        staging,
        actorOf(scope),
      );
    return this.#ended(
      bookId,
      this.#db.dialect === 'postgres' ? this.#changesPerOwner.run(bookId, run) : run(),
      staging,
    );
  }

  async run<C extends Commands>(
    command: C,
    scope: WriteScope,
    ...args: ArgumentsOf<C>
  ): Promise<ValueOf<C>> {
    const bookId = bookOf(scope);
    const name = this.#names.get(command);
    if (name === undefined) throw new Error('this command is not in the table of write commands');
    const sqlite = this.#db.sqlite;
    const staging = command.staging === true;
    if (sqlite) {
      const running = sqlite.runCommand<ValueOf<C>>(name, bookId, args, actorOf(scope));
      return this.#ended(bookId, running, staging);
    }
    const work = (await command.prepare(bookId, ...args)) as Work<ValueOf<C>>;
    return this.change(scope, work, staging);
  }

  async #ended<T>(bookId: string, change: Promise<ChangeOutcome<T>>, staging: boolean): Promise<T> {
    let changed = false;
    try {
      const outcome = await change;
      changed = outcome.changed;
      return outcome.value;
    } finally {
      // After the answer's turn: the write never waits for the fan-out.
      if (changed && !staging) this.#feed.committed(bookId);
    }
  }

  /**
   * No event: the books' logs go too. Changes already running commit first; later ones answer
   * 401. Locked in one order, so two removals cannot deadlock.
   */
  async removeBooks<T>(
    bookIds: readonly string[],
    work: (trx: Transaction<Database>) => Promise<T>,
  ): Promise<T> {
    const ordered = [...bookIds].sort();
    const result = await this.#db.kysely.transaction().execute(async (trx) => {
      for (const bookId of ordered) await lockBookForRemoval(trx, this.#db.dialect, bookId);
      return work(trx);
    });
    for (const bookId of ordered) this.#feed.endOwner(bookId);
    return result;
  }
}
