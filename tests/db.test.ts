import { afterEach, describe, expect, it } from 'vitest';
import { createDb } from '../src/server/db/database.ts';
import { migrations } from '../src/server/db/migrations/index.ts';
import { createMigratedTestDatabase, type TestDatabase } from './db.ts';

const made: TestDatabase[] = [];
afterEach(async () => {
  await Promise.all(made.splice(0).map((database) => database.drop()));
});

async function appliedMigrations(database: TestDatabase): Promise<string[]> {
  const db = createDb(database.config);
  try {
    const rows = await db.kysely
      .selectFrom('kysely_migration' as never)
      .select('name' as never)
      .orderBy('name' as never)
      .execute();
    return rows.map((row) => (row as { name: string }).name);
  } finally {
    await db.kysely.destroy();
  }
}

describe('test databases', () => {
  it('start migrated, copied from the run’s template, and are each their own', async () => {
    const first = await createMigratedTestDatabase();
    const second = await createMigratedTestDatabase();
    made.push(first, second);
    expect(first.url).not.toBe(second.url);
    expect(await appliedMigrations(first)).toEqual(Object.keys(migrations).sort());
    const db = createDb(first.config);
    try {
      await db.kysely
        .insertInto('kysely_migration' as never)
        .values({ name: 'only in the first', timestamp: 'now' })
        .execute();
    } finally {
      await db.kysely.destroy();
    }
    expect(await appliedMigrations(second)).toEqual(Object.keys(migrations).sort());
  });
});
