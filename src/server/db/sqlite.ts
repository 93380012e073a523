import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { DatabaseSync, type SQLInputValue, type StatementSync } from 'node:sqlite';
import type { QueryResult } from 'kysely';
import { LRUCache } from 'lru-cache';

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
    // A statement that yields columns is a reader (SELECT, or anything with RETURNING).
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

/**
 * Opens an SQLite file through node:sqlite. The app's connections live in worker threads
 * (`sqlite-worker.ts`, `sqlite-dialect.ts`); a read-only one serves reads beside the writer.
 */
export function openSqlite(file: string, options: { readOnly?: boolean } = {}): SqliteConnection {
  const readOnly = options.readOnly ?? false;
  if (file !== ':memory:' && !readOnly) {
    mkdirSync(path.dirname(path.resolve(file)), { recursive: true });
  }
  const raw = new DatabaseSync(file, { timeout: busyTimeoutMs, readOnly });
  // WAL lets readers run beside the writer; FULL syncs the WAL on every commit, so an
  // acknowledged write survives a power cut, not only a crash of the process.
  if (!readOnly) raw.exec('PRAGMA journal_mode = WAL');
  raw.exec('PRAGMA synchronous = FULL');
  raw.exec('PRAGMA foreign_keys = ON');
  // Each transaction of a group commit is a savepoint, and SQLite keeps a copy of each page a
  // savepoint changes (once, however often it changes) so it can roll back to it. Past 64 KiB
  // that copy went to a temporary file, written and read again within the group: it now stays
  // in memory until the group ends. The commit synced to disk is the WAL's, untouched by this.
  // Half the time of a balance change's statements went there (docs/performance.md). A command
  // that opens its group takes no savepoint (sqlite-commands.ts): only a statement that writes
  // many rows keeps such copies then, and only until it ends.
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

/** How many distinct statements stay compiled; the app's queries are far fewer. */
const cachedStatements = 500;

/**
 * Compiled statements by SQL text. Kysely asks for a new statement for every query; compiling the
 * same text again each time was about a tenth of a simple request's cost. Reusing one is safe
 * because each connection runs one query at a time (in its own worker thread), and node:sqlite
 * resets a statement when all() or run() returns.
 */
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

/** What one statement gave: its rows, or what it changed. */
export interface QueryOutcome {
  rows: unknown[];
  changes?: number | bigint;
  lastInsertRowid?: number | bigint;
}

/** Runs one statement on a connection (compiled once per SQL text). */
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

/** A statement's outcome as Kysely takes it. */
export function toQueryResult<R>(outcome: QueryOutcome | undefined): QueryResult<R> {
  if (!outcome) return { rows: [] };
  const { rows, changes, lastInsertRowid } = outcome;
  if (changes === undefined) return { rows: rows as R[] };
  return {
    rows: rows as R[],
    numAffectedRows: BigInt(changes),
    insertId: lastInsertRowid === undefined ? undefined : BigInt(lastInsertRowid),
  };
}
