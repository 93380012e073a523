import { DatabaseSync } from 'node:sqlite';
import { afterAll, beforeAll } from 'vitest';
import {
  DummyDriver,
  Kysely,
  SqliteAdapter,
  SqliteIntrospector,
  SqliteQueryCompiler,
} from 'kysely';
import type { Database } from '../src/server/db/database.ts';
import { migrateToLatest } from '../src/server/db/migrate.ts';
import { SqliteWorkerDialect } from '../src/server/db/sqlite/dialect.ts';
import { createTestDatabase, type TestDatabase } from './db.ts';

/**
 * SQLite's plans for the very SQL the app's queries send: the queries are run on a Kysely that
 * only compiles them (every read gives no rows) and the text is asked for its plan on a database
 * made by the real migrations. SQLite keeps no statistics there, as in a fresh instance.
 */
export interface QueryPlans {
  /** Compiles whatever the callback's queries send. */
  recorder: Kysely<Database>;
  /** The SQL sent since the last call, each with its plan ("SEARCH entries USING INDEX ..."). */
  take(): { sql: string; plan: string[] }[];
  close(): Promise<void>;
}

async function sqliteQueryPlans(): Promise<QueryPlans> {
  const database: TestDatabase = await createTestDatabase('sqlite');
  if (database.config.dialect !== 'sqlite') throw new Error('an SQLite database was asked for');
  const migrated = new Kysely<Database>({ dialect: new SqliteWorkerDialect(database.config.file) });
  await migrateToLatest(migrated);
  await migrated.destroy();
  const explain = new DatabaseSync(database.config.file, { readOnly: true });
  let sent: string[] = [];
  const recorder = new Kysely<Database>({
    dialect: {
      createAdapter: () => new SqliteAdapter(),
      createDriver: () => new DummyDriver(),
      createIntrospector: (db) => new SqliteIntrospector(db),
      createQueryCompiler: () => new SqliteQueryCompiler(),
    },
    log: (event) => {
      if (event.level === 'query') sent.push(event.query.sql);
    },
  });
  return {
    recorder,
    take() {
      const taken = sent;
      sent = [];
      return taken.map((sql) => ({
        sql,
        plan: (explain.prepare(`explain query plan ${sql}`).all() as { detail: string }[]).map(
          (row) => row.detail,
        ),
      }));
    },
    async close() {
      explain.close();
      await recorder.destroy();
      await database.drop();
    },
  };
}

/** A recorder for the tests of one file: made before the first, closed after the last. */
export function sqliteQueryPlansForFile(): { readonly current: QueryPlans } {
  // Set before any test runs; undefined only if making it failed, and then there is none to close.
  const plans = {} as { current: QueryPlans | undefined };
  beforeAll(async () => {
    plans.current = await sqliteQueryPlans();
  });
  afterAll(async () => {
    await plans.current?.close();
  });
  return plans as { readonly current: QueryPlans };
}
