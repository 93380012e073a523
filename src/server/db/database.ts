import { Kysely, PostgresDialect } from 'kysely';
import pg from 'pg';
import type { DatabaseConfig } from '../config.ts';
import type { AccountTables } from '../modules/auth/auth.table.ts';
import type { ClientTables } from '../modules/clients/clients.table.ts';
import type { EventTables } from '../modules/events/events.table.ts';
import type { SettingsTables } from '../modules/settings/settings.table.ts';
import { SqliteWorkerDialect } from './sqlite-dialect.ts';

export type Database = AccountTables & ClientTables & EventTables & SettingsTables;

export type Dialect = DatabaseConfig['dialect'];

export interface Db {
  kysely: Kysely<Database>;
  dialect: Dialect;
  config: DatabaseConfig;
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

export function createDb(
  config: DatabaseConfig,
  onPoolError: (error: Error) => void = () => {},
): Db {
  if (config.dialect === 'postgres') {
    const pool = new pg.Pool({
      connectionString: config.connectionString,
      types: pgTypes,
      max: 10,
    });
    // An idle client that loses its connection emits 'error'; unheard, it would crash the process.
    pool.on('error', onPoolError);
    return {
      kysely: new Kysely<Database>({ dialect: new PostgresDialect({ pool }) }),
      dialect: 'postgres',
      config,
    };
  }
  return {
    kysely: new Kysely<Database>({ dialect: new SqliteWorkerDialect(config.file) }),
    dialect: 'sqlite',
    config,
  };
}
