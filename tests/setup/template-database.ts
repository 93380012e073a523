import { DatabaseSync } from 'node:sqlite';
import type { TestProject } from 'vitest/node';
import { createDb } from '../../src/server/db/database.ts';
import { migrateToLatest } from '../../src/server/db/migrate.ts';
import { createTestDatabase, type TestDialect } from '../db.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    /** A database the real migrations made at the start of this run; tests/db.ts copies it. */
    templateDatabase: { dialect: TestDialect; url: string } | null;
  }
}

/**
 * Global setup of a server project: runs the real migrations once, into a database that every
 * test app then starts from as a copy (an SQLite file copy, PostgreSQL's CREATE DATABASE ...
 * TEMPLATE). Migrating anew for each of the suite's many apps took a good share of its time.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const dialect: TestDialect =
    project.config.env.TEST_DIALECT === 'postgres' ? 'postgres' : 'sqlite';
  const template = await createTestDatabase(dialect);
  const db = createDb(template.config);
  try {
    await migrateToLatest(db.kysely);
  } finally {
    await db.kysely.destroy();
  }
  if (template.config.dialect === 'sqlite') {
    // Everything into the main file, so that a copy of that one file is the whole database.
    const raw = new DatabaseSync(template.config.file);
    raw.exec('PRAGMA wal_checkpoint(TRUNCATE)');
    raw.close();
  }
  project.provide('templateDatabase', { dialect, url: template.url });
  return () => template.drop();
}
