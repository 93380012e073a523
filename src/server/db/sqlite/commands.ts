// On the writer's own connection, so no statement crosses threads (decision 014). This room
// knows no command: the thread's entry (src/server/sqlite-thread.ts) hands them over.
import {
  Kysely,
  type CompiledQuery,
  type DatabaseConnection,
  type Driver,
  type QueryResult,
} from 'kysely';
import type { Actor } from '../actor.ts';
import { AppError, type AppErrorData } from '../../errors.ts';
import type { Database } from '../database.ts';
import { runStatement, type SqliteConnection } from './connection.ts';
import { SqliteConnectionBase, SqliteDialectBase, toQueryResult } from './dialect-base.ts';

export type CommandResult =
  { ok: true; value: unknown; changed: boolean } | { ok: false; app: AppErrorData };

/** `group`: first in its group, in no savepoint, whose page copies would cost memory (decision 008). */
export type CommandPlace = 'group' | 'savepoint';

export type ReadyCommand = (
  kysely: Kysely<Database>,
) => Promise<{ value: unknown; changed: boolean }>;

/** Reads the arguments outside any transaction, as on PostgreSQL. */
export type PrepareCommand = (
  name: string,
  bookId: string,
  args: unknown[],
  actor: Actor | null,
) => Promise<ReadyCommand>;

export type LoadCommands = () => Promise<PrepareCommand>;

export type PreparedCommand = ReadyCommand | { ok: false; app: AppErrorData };

export interface CommandRunner {
  prepare(
    name: string,
    bookId: string,
    args: unknown[],
    actor: Actor | null,
  ): Promise<PreparedCommand>;
  run(command: PreparedCommand, place: CommandPlace): Promise<CommandResult>;
}

const savepoint = 'command';

class InThreadConnection extends SqliteConnectionBase {
  readonly #db: SqliteConnection;

  constructor(db: SqliteConnection) {
    super();
    this.#db = db;
  }

  executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
    // After a full disk rolled back the transaction, each later statement would commit alone.
    if (!this.#db.isTransaction) {
      throw new Error('the transaction was lost under this command: it can write nothing more');
    }
    return Promise.resolve(toQueryResult<R>(runStatement(this.#db, query.sql, query.parameters)));
  }
}

class InThreadDriver implements Driver {
  readonly #db: SqliteConnection;
  readonly #connection: InThreadConnection;
  /** One driver serves both places: the writer runs one command at a time. */
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
    if (this.place === 'savepoint') this.#db.exec(`savepoint ${savepoint}`);
  }

  async commitTransaction(): Promise<void> {
    if (this.place === 'savepoint') this.#db.exec(`release ${savepoint}`);
  }

  async rollbackTransaction(): Promise<void> {
    if (this.place === 'group') return;
    // A full disk or an I/O error may already have rolled back the whole group, savepoint and all.
    if (this.#db.isTransaction) this.#db.exec(`rollback to ${savepoint}; release ${savepoint}`);
  }

  async releaseConnection(): Promise<void> {}

  async destroy(): Promise<void> {}
}

class InThreadDialect extends SqliteDialectBase {
  readonly #driver: InThreadDriver;

  constructor(driver: InThreadDriver) {
    super();
    this.#driver = driver;
  }

  createDriver(): Driver {
    return this.#driver;
  }
}

function refusal(error: unknown): { ok: false; app: AppErrorData } {
  if (error instanceof AppError) return { ok: false, app: error.toData() };
  throw error;
}

export function commandRunner(db: SqliteConnection, prepare: PrepareCommand): CommandRunner {
  const driver = new InThreadDriver(db);
  const kysely = new Kysely<Database>({ dialect: new InThreadDialect(driver) });
  return {
    prepare: (name, bookId, args, actor) => prepare(name, bookId, args, actor).catch(refusal),
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
