import { randomBytes } from 'node:crypto';
import { copyFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { inject } from 'vitest';
import type { DatabaseConfig } from '../src/server/config.ts';

export type TestDialect = 'sqlite' | 'postgres';

export const testDialect: TestDialect =
  process.env.TEST_DIALECT === 'postgres' ? 'postgres' : 'sqlite';

/** The other kind of database when PostgreSQL is there to use: data moves between the two. */
export const otherDialect: TestDialect =
  testDialect === 'sqlite' ? (process.env.TEST_DATABASE_URL ? 'postgres' : 'sqlite') : 'sqlite';

export interface TestDatabase {
  config: DatabaseConfig;
  /** The DATABASE_URL that points at this database, for a server started as a process. */
  url: string;
  drop(): Promise<void>;
}

/** A new, empty database of the dialect under test; the app's own migrations fill it. */
export function createTestDatabase(dialect: TestDialect = testDialect): Promise<TestDatabase> {
  return newDatabase(dialect, null);
}

/**
 * A new database of the dialect under test, already migrated: a copy of the one the run's global
 * setup migrated (tests/setup/template-database.ts), or, outside such a run, an empty one that
 * the app's own migrations fill.
 */
export function createMigratedTestDatabase(
  dialect: TestDialect = testDialect,
): Promise<TestDatabase> {
  const template = inject('templateDatabase');
  return newDatabase(dialect, template?.dialect === dialect ? template.url : null);
}

async function newDatabase(
  dialect: TestDialect,
  templateUrl: string | null,
): Promise<TestDatabase> {
  const name = `balance_test_${randomBytes(6).toString('hex')}`;
  if (dialect === 'sqlite') {
    const file = path.join(os.tmpdir(), `${name}.sqlite`);
    if (templateUrl) await copyFile(templateUrl, file);
    return {
      config: { dialect: 'sqlite', file },
      url: file,
      drop: async () => {
        await Promise.all(['', '-wal', '-shm'].map((suffix) => rm(file + suffix, { force: true })));
      },
    };
  }
  const adminUrl = process.env.TEST_DATABASE_URL;
  if (!adminUrl)
    throw new Error('TEST_DATABASE_URL must be set to create a PostgreSQL test database');
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    // The template's name is ours (made by the global setup), never a user's input.
    const template = templateUrl ? ` template ${new URL(templateUrl).pathname.slice(1)}` : '';
    await admin.query(`create database ${name}${template}`);
  } finally {
    await admin.end();
  }
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    config: { dialect: 'postgres', connectionString: url.toString() },
    url: url.toString(),
    drop: async () => {
      const client = new pg.Client({ connectionString: adminUrl });
      await client.connect();
      try {
        await client.query(`drop database if exists ${name} with (force)`);
      } finally {
        await client.end();
      }
    },
  };
}
