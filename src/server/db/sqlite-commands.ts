// The writer thread's side of commands (docs/decisions/014-commands-in-the-sqlite-writer.md): a
// command of the write path runs here, on the writer's own connection, inside the group
// transaction the writer has open, so none of its statements crosses between threads. This room
// knows no command: what runs them (`RunCommand`) is handed to the writer from above, by the
// thread's entry (src/server/sqlite-thread.ts).
import {
  Kysely,
  SqliteAdapter,
  SqliteIntrospector,
  SqliteQueryCompiler,
  type CompiledQuery,
  type DatabaseConnection,
  type Dialect,
  type Driver,
  type QueryResult,
} from 'kysely';
import { AppError, type AppErrorData } from '../errors.ts';
import type { Database } from './database.ts';
import { runStatement, toQueryResult, type SqliteConnection } from './sqlite.ts';

/** What a command gave: its value and whether it changed anything, or the AppError it threw. */
export type CommandResult =
  { ok: true; value: unknown; changed: boolean } | { ok: false; app: AppErrorData };

/**
 * Where a command's transaction sits in the writer's group transaction:
 * - `group`: the command is the group's first work, so the group's transaction is its own. It
 *   opens no savepoint; should it fail or change nothing, the writer rolls back the group's
 *   transaction, which holds nothing else.
 * - `savepoint`: others' work came first; the command's is a savepoint after theirs.
 *
 * A savepoint costs a copy of every page the command changes that was there before it began
 * (SQLite rolls back to them), kept in the writer's memory (`temp_store`, sqlite.ts). For an
 * import into a large list that is most of the list's index pages: each import left the server
 * tens of megabytes larger, which the allocator did not give back.
 */
export type CommandPlace = 'group' | 'savepoint';

/** A command whose arguments have been read: its one transaction on `kysely`, and what it gave. */
export type ReadyCommand = (
  kysely: Kysely<Database>,
) => Promise<{ value: unknown; changed: boolean }>;

/**
 * Makes the command named `name` ready to run: reads its arguments (an import's body parsed and
 * checked) outside any transaction, as on PostgreSQL. Made above this room, of the write path's
 * table of commands (`runnerOf` in modules/events/write-path.ts); a command's AppError is thrown
 * as it is.
 */
export type PrepareCommand = (
  name: string,
  ownerId: string,
  args: unknown[],
) => Promise<ReadyCommand>;

/** How the writer loads its `PrepareCommand`, when the first command arrives. */
export type LoadCommands = () => Promise<PrepareCommand>;

/** A command ready to run, or the AppError its reading threw (nothing left to run). */
export type PreparedCommand = ReadyCommand | { ok: false; app: AppErrorData };

/** The writer's side: commands read, then run on its connection at the place the writer gives. */
export interface CommandRunner {
  prepare(name: string, ownerId: string, args: unknown[]): Promise<PreparedCommand>;
  run(command: PreparedCommand, place: CommandPlace): Promise<CommandResult>;
}

/** The savepoint of a command that runs after other work of its group. */
const savepoint = 'command';

class InThreadConnection implements DatabaseConnection {
  readonly #db: SqliteConnection;

  constructor(db: SqliteConnection) {
    this.#db = db;
  }

  executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
    // A full disk or an I/O error makes SQLite roll back the whole transaction: a command that
    // carried on would have each later statement committed on its own.
    if (!this.#db.isTransaction) {
      throw new Error('the transaction was lost under this command: it can write nothing more');
    }
    return Promise.resolve(toQueryResult<R>(runStatement(this.#db, query.sql, query.parameters)));
  }

  // eslint-disable-next-line require-yield
  async *streamQuery<R>(): AsyncIterableIterator<QueryResult<R>> {
    throw new Error('Streaming is not supported on SQLite: read in keyset pages instead');
  }
}

class InThreadDriver implements Driver {
  readonly #db: SqliteConnection;
  readonly #connection: InThreadConnection;
  /**
   * Where the running command's transaction sits. Set before each command: the writer runs one
   * command at a time, each to its end, so one driver (and the statements compiled for its
   * adapter) serves both places.
   */
  place: CommandPlace = 'savepoint';

  constructor(db: SqliteConnection) {
    this.#db = db;
    this.#connection = new InThreadConnection(db);
  }

  async init(): Promise<void> {}

  async acquireConnection(): Promise<DatabaseConnection> {
    return this.#connection;
  }

  async beginTransaction(): Promise<void> {
    // At the top of its group, the group's transaction (begun by the writer) is the command's.
    if (this.place === 'savepoint') this.#db.exec(`savepoint ${savepoint}`);
  }

  async commitTransaction(): Promise<void> {
    // The group's COMMIT, once the group is done, makes it durable.
    if (this.place === 'savepoint') this.#db.exec(`release ${savepoint}`);
  }

  async rollbackTransaction(): Promise<void> {
    // At the top of its group, the writer ends the group's transaction once the command is done.
    if (this.place === 'group') return;
    // A full disk or an I/O error may already have rolled back the whole group, savepoint and all.
    if (this.#db.isTransaction) this.#db.exec(`rollback to ${savepoint}; release ${savepoint}`);
  }

  async releaseConnection(): Promise<void> {}

  async destroy(): Promise<void> {}
}

class InThreadDialect implements Dialect {
  readonly #driver: InThreadDriver;

  constructor(driver: InThreadDriver) {
    this.#driver = driver;
  }

  createDriver(): Driver {
    return this.#driver;
  }

  createQueryCompiler() {
    return new SqliteQueryCompiler();
  }

  createAdapter() {
    return new SqliteAdapter();
  }

  createIntrospector(db: Kysely<unknown>) {
    return new SqliteIntrospector(db);
  }
}

/** An AppError as a result that crosses to the request thread, where it is thrown again. */
function refusal(error: unknown): { ok: false; app: AppErrorData } {
  if (error instanceof AppError) return { ok: false, app: error.toData() };
  throw error;
}

/**
 * Prepares commands with `prepare` and runs them on the writer's connection, which must have its
 * group transaction open when one runs (`place` says whether the command is its first work).
 */
export function commandRunner(db: SqliteConnection, prepare: PrepareCommand): CommandRunner {
  const driver = new InThreadDriver(db);
  const kysely = new Kysely<Database>({ dialect: new InThreadDialect(driver) });
  return {
    prepare: (name, ownerId, args) => prepare(name, ownerId, args).catch(refusal),
    run: async (command, place) => {
      if (typeof command !== 'function') return command;
      driver.place = place;
      try {
        const { value, changed } = await command(kysely);
        return { ok: true, value, changed };
      } catch (error) {
        return refusal(error);
      }
    },
  };
}
