import { sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { buildApp } from '../src/server/app.ts';
import { loadConfig } from '../src/server/config.ts';
import {
  countRows,
  isDerivedTable,
  restoreArchive,
  writeArchive,
} from '../src/server/db/archive.ts';
import { createDb, type Db } from '../src/server/db/database.ts';
import type { Client } from '../src/shared/schemas/clients.ts';
import { joinAs } from './auth.ts';
import {
  createTestDatabase,
  otherDialect,
  testDialect,
  type TestDatabase,
  type TestDialect,
} from './db.ts';
import { buildClient } from './factories.ts';
import { injectOk } from './http.ts';
import { fillAccount } from './populate.ts';

const cleanup: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const step of cleanup.splice(0).reverse()) await step();
});

async function freshDatabase(dialect: TestDialect): Promise<TestDatabase> {
  const database = await createTestDatabase(dialect);
  cleanup.push(() => database.drop());
  return database;
}

async function appOn(database: TestDatabase) {
  const app = await buildApp({ config: { ...loadConfig({}), database: database.config } });
  cleanup.push(() => app.close());
  return app;
}

function open(database: TestDatabase): Db {
  const db = createDb(database.config);
  cleanup.push(() => db.kysely.destroy());
  return db;
}

async function archiveOf(db: Db): Promise<string[]> {
  const lines: string[] = [];
  await writeArchive(db, async (line) => {
    lines.push(...line.split('\n'));
  });
  return lines;
}

async function* from(lines: readonly string[]) {
  yield* lines;
}

/** Every row of every table, as sorted JSON with sorted keys: equal means nothing was lost. */
async function everyRow(db: Db): Promise<Record<string, string[]>> {
  // The search index is not archived: it is made again from the clients (checked below).
  const tables = (await db.kysely.introspection.getTables())
    .map((table) => table.name)
    .filter((name) => !isDerivedTable(name))
    .sort();
  const snapshot: Record<string, string[]> = {};
  for (const table of tables) {
    const { rows } = await sql<Record<string, unknown>>`select * from ${sql.table(table)}`.execute(
      db.kysely,
    );
    snapshot[table] = rows
      .map((row) => JSON.stringify(Object.fromEntries(Object.entries(row).sort())))
      .sort();
  }
  return snapshot;
}

describe(`instance backup and restore (${testDialect} to ${otherDialect} and back)`, () => {
  it('moves every row, id, event and session to the other database and back, and the copy serves', async () => {
    const source = await freshDatabase(testDialect);
    const app = await appOn(source);
    const owner = await joinAs(app);
    const other = await joinAs(app);
    await fillAccount(app, owner.cookie);
    await fillAccount(app, other.cookie);
    await joinAs(app);
    const original = await everyRow(open(source));
    expect(original.sessions?.length).toBeGreaterThanOrEqual(2);
    expect(original.entries?.length).toBeGreaterThan(10);

    const lines = await archiveOf(open(source));
    expect(JSON.parse(lines[0] ?? '{}')).toMatchObject({
      format: 'balance-backup',
      dialect: testDialect,
      migrations: expect.arrayContaining(['0001-accounts', '0005-ledger']) as string[],
    });

    const moved = await freshDatabase(otherDialect);
    const movedDb = open(moved);
    const summary = await restoreArchive(movedDb, from(lines));
    expect(summary.rows.clients).toBe(original.clients?.length);
    expect(await everyRow(movedDb)).toEqual(original);

    // And back again, from a backup of the moved copy.
    const back = await freshDatabase(testDialect);
    const backDb = open(back);
    await restoreArchive(backDb, from(await archiveOf(movedDb)));
    expect(await everyRow(backDb)).toEqual(original);

    // The moved copy serves: the old session still signs in, and new ids follow the old ones.
    await movedDb.kysely.destroy();
    cleanup.pop();
    const served = await appOn(moved);
    const list = await injectOk(served, 'GET', '/api/clients', owner.cookie);
    expect(list.json<{ count: number }>().count).toBe(3);
    // The restored clients are found by a search, which reads the rebuilt index on SQLite.
    const someone = list.json<{ clients: Client[] }>().clients[0] as Client;
    const found = await injectOk(
      served,
      'GET',
      `/api/clients?q=${encodeURIComponent(someone.email)}`,
      owner.cookie,
    );
    expect(found.json<{ clients: Client[] }>().clients.map((client) => client.id)).toEqual([
      someone.id,
    ]);
    const added = (
      await injectOk(served, 'POST', '/api/clients', owner.cookie, buildClient({ balance: 1 }))
    ).json<Client>();
    const db = served.db.kysely;
    const newest = await db
      .selectFrom('events')
      .select(['id', 'client_id'])
      .orderBy('id', 'desc')
      .executeTakeFirstOrThrow();
    expect(newest.client_id).toBe(added.id);
    const oldEventIds = (original.events ?? []).map(
      (row) => (JSON.parse(row) as { id: number }).id,
    );
    expect(newest.id).toBeGreaterThan(Math.max(...oldEventIds));
    const newestEntry = await db
      .selectFrom('entries')
      .select('id')
      .where('client_id', '=', added.id)
      .executeTakeFirstOrThrow();
    const oldEntryIds = (original.entries ?? []).map(
      (row) => (JSON.parse(row) as { id: number }).id,
    );
    expect(newestEntry.id).toBeGreaterThan(Math.max(...oldEntryIds));
  });

  it('refuses a database that is not empty, changing nothing in it', async () => {
    const source = await freshDatabase(testDialect);
    const app = await appOn(source);
    await fillAccount(app, (await joinAs(app)).cookie);
    const lines = await archiveOf(open(source));
    const target = await freshDatabase(otherDialect);
    const targetApp = await appOn(target);
    await joinAs(targetApp);
    const before = await everyRow(open(target));
    await expect(restoreArchive(open(target), from(lines))).rejects.toThrow(
      /the database is not empty \(.*users: 1 rows/,
    );
    expect(await everyRow(open(target))).toEqual(before);
  });

  it('refuses a backup from a newer schema, a cut-short file and a file that is no backup', async () => {
    const source = await freshDatabase(testDialect);
    const app = await appOn(source);
    await fillAccount(app, (await joinAs(app)).cookie);
    const lines = await archiveOf(open(source));
    const header = JSON.parse(lines[0] ?? '{}') as { migrations: string[] };
    const newer = [
      JSON.stringify({ ...header, migrations: [...header.migrations, '0099-from-the-future'] }),
      ...lines.slice(1),
    ];
    const target = await freshDatabase(otherDialect);
    const db = open(target);
    await expect(restoreArchive(db, from(newer))).rejects.toThrow(
      'the backup comes from a newer Balance (its schema has 0099-from-the-future); update Balance first',
    );
    await expect(restoreArchive(db, from(lines.slice(0, -3)))).rejects.toThrow(
      'the file is cut short',
    );
    await expect(restoreArchive(db, from(['{"format":"balance-export"}']))).rejects.toThrow(
      'not a Balance backup',
    );
    // Nothing of the refused attempts stayed behind: the real backup still goes in.
    expect(Object.values(await countRows(db.kysely)).every((n) => n === 0)).toBe(true);
    await restoreArchive(db, from(lines));
    expect(await everyRow(db)).toEqual(await everyRow(open(source)));
  });
});
