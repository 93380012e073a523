import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { DatabaseSync, type SQLInputValue, type StatementSync } from 'node:sqlite';
import { LRUCache } from 'lru-cache';
import type { QueryOutcome } from './protocol.ts';

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

class NodeSqliteStatement {
  readonly reader: boolean;
  readonly #statement: StatementSync;

  constructor(statement: StatementSync) {
    this.#statement = statement;
    this.reader = statement.columns().length > 0;
  }

  all(parameters: ReadonlyArray<unknown>): unknown[] {
    return this.#statement.all(...bindAll(parameters));
  }

  run(parameters: ReadonlyArray<unknown>) {
    return this.#statement.run(...bindAll(parameters));
  }
}

export interface SqliteConnection {
  raw: DatabaseSync;
  close(): void;
  prepare(sql: string): NodeSqliteStatement;
  readonly isTransaction: boolean;
  exec(sql: string): void;
}

export function openSqlite(file: string, options: { readOnly?: boolean } = {}): SqliteConnection {
  const readOnly = options.readOnly ?? false;
  if (file !== ':memory:' && !readOnly) {
    mkdirSync(path.dirname(path.resolve(file)), { recursive: true });
  }
  const raw = new DatabaseSync(file, { timeout: busyTimeoutMs, readOnly });
  // FULL: an acknowledged write survives a power cut, not only a crash of the process.
  if (!readOnly) raw.exec('PRAGMA journal_mode = WAL');
  raw.exec('PRAGMA synchronous = FULL');
  raw.exec('PRAGMA foreign_keys = ON');
  // Savepoints' page copies stay off a temporary file; the WAL's durability is untouched.
  if (!readOnly) raw.exec('PRAGMA temp_store = MEMORY');
  const statements = new StatementCache(raw);
  return {
    raw,
    close: () => {
      statements.clear();
      raw.close();
    },
    prepare: (sql: string) => statements.get(sql),
    get isTransaction() {
      return raw.isTransaction;
    },
    exec: (sql: string) => raw.exec(sql),
  };
}

const cachedStatements = 500;

/** Safe: a connection runs one query at a time, and node:sqlite resets a statement after it. */
class StatementCache {
  readonly #database: DatabaseSync;
  readonly #statements = new LRUCache<string, NodeSqliteStatement>({ max: cachedStatements });

  constructor(database: DatabaseSync) {
    this.#database = database;
  }

  get(sql: string): NodeSqliteStatement {
    let statement = this.#statements.get(sql);
    if (!statement) {
      statement = new NodeSqliteStatement(this.#database.prepare(sql));
      this.#statements.set(sql, statement);
    }
    return statement;
  }

  clear(): void {
    this.#statements.clear();
  }
}

export function runStatement(
  db: SqliteConnection,
  sql: string,
  parameters: readonly unknown[],
): QueryOutcome {
  const statement = db.prepare(sql);
  if (statement.reader) return { rows: statement.all(parameters) };
  const { changes, lastInsertRowid } = statement.run(parameters);
  return { rows: [], changes, lastInsertRowid };
}
