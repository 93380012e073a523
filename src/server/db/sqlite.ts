import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { DatabaseSync, type SQLInputValue, type StatementSync } from 'node:sqlite';
import type { SqliteDatabase, SqliteStatement } from 'kysely';

/** How long a writer waits for another connection's lock before SQLITE_BUSY. */
const busyTimeoutMs = 5000;

function toSqliteValue(value: unknown): SQLInputValue {
  if (value === undefined) return null;
  if (typeof value === 'boolean') return value ? 1 : 0;
  return value as SQLInputValue;
}

function bindAll(parameters: ReadonlyArray<unknown>): SQLInputValue[] {
  return parameters.map(toSqliteValue);
}

class NodeSqliteStatement implements SqliteStatement {
  readonly reader: boolean;
  readonly #statement: StatementSync;

  constructor(statement: StatementSync) {
    this.#statement = statement;
    // A statement that yields columns is a reader (SELECT, or anything with RETURNING).
    this.reader = statement.columns().length > 0;
  }

  all(parameters: ReadonlyArray<unknown>): unknown[] {
    return this.#statement.all(...bindAll(parameters));
  }

  run(parameters: ReadonlyArray<unknown>) {
    return this.#statement.run(...bindAll(parameters));
  }

  iterate(parameters: ReadonlyArray<unknown>): IterableIterator<unknown> {
    return this.#statement.iterate(...bindAll(parameters));
  }
}

/** Opens an SQLite file through node:sqlite in the shape Kysely's SqliteDialect expects. */
export function openSqlite(file: string): SqliteDatabase & { raw: DatabaseSync } {
  if (file !== ':memory:') mkdirSync(path.dirname(path.resolve(file)), { recursive: true });
  const raw = new DatabaseSync(file, { timeout: busyTimeoutMs });
  // WAL lets readers run beside the writer; FULL syncs the WAL on every commit, so an
  // acknowledged write survives a power cut, not only a crash of the process.
  raw.exec('PRAGMA journal_mode = WAL');
  raw.exec('PRAGMA synchronous = FULL');
  raw.exec('PRAGMA foreign_keys = ON');
  const statements = new StatementCache(raw);
  return {
    raw,
    close: () => {
      statements.clear();
      raw.close();
    },
    prepare: (sql: string) =>
      sql === 'rollback' && !raw.isTransaction ? noTransactionToRollBack : statements.get(sql),
  };
}

/**
 * SQLite rolls a transaction back by itself on some errors (a full disk, out of memory). Kysely
 * then sends its own ROLLBACK, which would fail with "cannot rollback - no transaction is active"
 * and replace the error that matters: with nothing left to roll back, there is nothing to run.
 */
const noTransactionToRollBack: SqliteStatement = {
  reader: false,
  all: () => [],
  run: () => ({ changes: 0, lastInsertRowid: 0 }),
  iterate: () => [][Symbol.iterator](),
};

/** How many distinct statements stay compiled; the app's queries are far fewer. */
const cachedStatements = 500;

/**
 * Compiled statements by SQL text. Kysely asks for a new statement for every query; compiling the
 * same text again each time was about a tenth of a simple request's cost. Reusing one is safe
 * because Kysely's SQLite driver runs one query at a time on its single connection, and
 * node:sqlite resets a statement when all() or run() returns.
 */
class StatementCache {
  readonly #database: DatabaseSync;
  readonly #statements = new Map<string, NodeSqliteStatement>();

  constructor(database: DatabaseSync) {
    this.#database = database;
  }

  get(sql: string): NodeSqliteStatement {
    const cached = this.#statements.get(sql);
    if (cached) {
      // Most recently used last, so the first key is the one to drop when full.
      this.#statements.delete(sql);
      this.#statements.set(sql, cached);
      return cached;
    }
    const statement = new NodeSqliteStatement(this.#database.prepare(sql));
    this.#statements.set(sql, statement);
    if (this.#statements.size > cachedStatements) {
      const oldest = this.#statements.keys().next().value;
      if (oldest !== undefined) this.#statements.delete(oldest);
    }
    return statement;
  }

  clear(): void {
    this.#statements.clear();
  }
}
