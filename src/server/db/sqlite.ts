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
  return {
    raw,
    close: () => raw.close(),
    prepare: (sql: string) => new NodeSqliteStatement(raw.prepare(sql)),
  };
}
