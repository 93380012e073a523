import { Migrator } from 'kysely/migration';
import { afterEach, expect } from 'vitest';
import { createDb, type Db } from '../src/server/db/database.ts';
import { migrations } from '../src/server/db/migrations/index.ts';
import { createTestDatabase, type TestDatabase } from './db.ts';

export interface OldDatabase {
  database: TestDatabase;
  db: Db;
  /** Runs the real migrations on, up to the one named. */
  migrateTo: (name: string) => Promise<void>;
  /** Runs every migration left. */
  migrateToLatest: () => Promise<void>;
}

/**
 * For a migration's test: a database the real migrations made up to an older one, with its one
 * owner (`owner`) in it, to be filled with rows as the code of that time wrote them and migrated
 * on. Dropped after each test.
 */
export function oldDatabases(): (
  migratedTo: string,
  owner?: { isAdmin?: boolean },
) => Promise<OldDatabase> {
  let opened: OldDatabase | undefined;
  afterEach(async () => {
    await opened?.db.kysely.destroy();
    await opened?.database.drop();
    opened = undefined;
  });
  return async (migratedTo, { isAdmin = false } = {}) => {
    const database = await createTestDatabase();
    const db = createDb(database.config);
    const migrator = new Migrator({
      db: db.kysely,
      provider: { getMigrations: () => Promise.resolve(migrations) },
    });
    const migrateTo = async (name: string) => {
      expect((await migrator.migrateTo(name)).error).toBeUndefined();
    };
    const migrateToLatest = async () => {
      expect((await migrator.migrateToLatest()).error).toBeUndefined();
    };
    opened = { database, db, migrateTo, migrateToLatest };
    await migrateTo(migratedTo);
    await db.kysely
      .insertInto('users')
      .values({
        id: 'owner',
        email: 'owner@example.com',
        email_key: 'owner@example.com',
        password_hash: 'x',
        is_admin: isAdmin ? 1 : 0,
        created_at: 0,
      })
      .execute();
    return opened;
  };
}
