import { Kysely, PostgresDialect, type Transaction } from 'kysely';
import pg from 'pg';
import type { DatabaseConfig, DatabaseTimeouts } from '../config.ts';
import type { AccountTables } from '../modules/auth/auth.table.ts';
import type { BankTables } from '../modules/bank/bank.table.ts';
import type { BookTables } from '../modules/books/books.table.ts';
import type { ClientLinkTables } from '../modules/client-links/client-links.table.ts';
import type { ClientTables } from '../modules/clients/clients.table.ts';
import type { EventTables } from '../modules/events/events.table.ts';
import type { IdempotencyTables } from '../modules/idempotency/idempotency.table.ts';
import type { LedgerTables } from '../modules/ledger/ledger.table.ts';
import type { ReminderTables } from '../modules/reminders/reminders.table.ts';
import type { SettingsTables } from '../modules/settings/settings.table.ts';
import type { TokenTables } from '../modules/tokens/tokens.table.ts';
import type { StagingTables } from '../modules/transfer/staging.table.ts';
import { SqliteWorkerDialect } from './sqlite/dialect.ts';

export type Database = AccountTables &
  BankTables &
  BookTables &
  ClientLinkTables &
  ClientTables &
  EventTables &
  IdempotencyTables &
  LedgerTables &
  ReminderTables &
  SettingsTables &
  StagingTables &
  TokenTables;

/** What a query runs on: the database, or a transaction its caller opened and passes down. */
export type Executor = Kysely<Database> | Transaction<Database>;

export type Dialect = DatabaseConfig['dialect'];

export interface Db {
  kysely: Kysely<Database>;
  dialect: Dialect;
  config: DatabaseConfig;
  health: {
    /** Cleared by the next write that succeeds. */
    diskFull: boolean;
    stopped: string | null;
    /**
     * Until the first migrations have run (`db/database-start.ts`): the server listens but
     * serves nothing that reads the database.
     */
    starting: 'connecting' | 'migrating' | null;
  };
  /** For the fault tests that crash a thread. */
  sqlite?: SqliteWorkerDialect;
}

const int8Oid = 20;
const numericOid = 1700;

/** PostgreSQL sends BIGINT as text; ours always fit a safe integer (money is bounded). */
function parseSafeInteger(text: string): number {
  const value = Number(text);
  if (!Number.isSafeInteger(value)) throw new RangeError(`integer out of safe range: ${text}`);
  return value;
}

const pgTypes = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') => {
    if (oid === int8Oid) return parseSafeInteger;
    // SUM() over BIGINT yields NUMERIC: keep it as text, callers convert exactly.
    if (oid === numericOid) return (text: string) => text;
    return pg.types.getTypeParser(oid, format ?? 'text') as (text: string) => unknown;
  }) as typeof pg.types.getTypeParser,
};

const defaultTimeouts: DatabaseTimeouts = {
  connectMs: 5000,
  statementMs: 15_000,
  idleInTransactionMs: 15_000,
};

/** pg waits this much longer than the server's statement_timeout, so a live server answers first. */
const readTimeoutGraceMs = 1000;

export function createDb(
  config: DatabaseConfig,
  onPoolError: (error: Error) => void = () => {},
  timeouts: DatabaseTimeouts = defaultTimeouts,
  onWorkerStopped: (error: Error) => void = () => {},
  sqliteThread?: URL,
): Db {
  if (config.dialect === 'postgres') {
    const pool = new pg.Pool({
      connectionString: config.connectionString,
      types: pgTypes,
      max: 10,
      connectionTimeoutMillis: timeouts.connectMs,
      statement_timeout: timeouts.statementMs,
      idle_in_transaction_session_timeout: timeouts.idleInTransactionMs,
      query_timeout: timeouts.statementMs + readTimeoutGraceMs,
      keepAlive: true,
    });
    // An idle client that loses its connection emits 'error'; unheard, it would crash the process.
    pool.on('error', onPoolError);
    pool.on('connect', (client) => {
      // The pool hears only idle clients; a checked-out one's error would crash it too.
      client.on('error', onPoolError);
      discardOnReadTimeout(client);
    });
    return {
      kysely: new Kysely<Database>({ dialect: new PostgresDialect({ pool }) }),
      dialect: 'postgres',
      config,
      health: { diskFull: false, stopped: null, starting: null },
    };
  }
  const health: Db['health'] = { diskFull: false, stopped: null, starting: null };
  const sqlite = new SqliteWorkerDialect(
    config.file,
    undefined,
    (role, error) => {
      health.stopped ??= `the SQLite ${role}`;
      onWorkerStopped(error);
    },
    sqliteThread,
  );
  return {
    kysely: new Kysely<Database>({ dialect: sqlite }),
    dialect: 'sqlite',
    config,
    health,
    sqlite,
  };
}

/** After a read timeout pg queues every later query behind the lost one (node-postgres 3399). */
function discardOnReadTimeout(client: pg.PoolClient): void {
  const query = client.query.bind(client) as (...args: unknown[]) => unknown;
  (client as { query: unknown }).query = (...args: unknown[]) => {
    const result = query(...args);
    if (result instanceof Promise) {
      result.catch((error: unknown) => {
        if (error instanceof Error && error.message === 'Query read timeout')
          client.connection.stream.destroy();
      });
    }
    return result;
  };
}
