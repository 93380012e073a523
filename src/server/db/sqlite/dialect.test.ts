import { DatabaseSync } from 'node:sqlite';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestDatabase, testDialect, type TestDatabase } from '../../../../tests/db.ts';
import { Kysely, sql } from 'kysely';
import type { Database } from '../database.ts';
import { inSlowReadLane } from './slow-read-lane.ts';
import { migrateToLatest } from '../migrate.ts';
import { openSqlite } from './connection.ts';
import { defaultGroupLimits, SqliteWorkerDialect } from './dialect.ts';

let database: TestDatabase;
let db: Kysely<Database>;
/** A connection of its own, outside the app: it sees only what is committed to the file. */
let outside: DatabaseSync;

const file = () => (database.config.dialect === 'sqlite' ? database.config.file : '');

const settingOutside = (key: string) =>
  outside.prepare('select value from instance_settings where key = ?').get(key) as
    { value: string } | undefined;

/** The table is typed for the one setting the app has; these tests write others beside it. */
type SettingKey = 'allow_registration';

const insertSetting = (executor: Kysely<Database>, key: string) =>
  executor
    .insertInto('instance_settings')
    .values({ key: key as SettingKey, value: key, updated_at: 0 })
    .execute();

/** Lets every message already posted reach the worker before the test goes on. */
const settle = () => new Promise((resolve) => setImmediate(resolve));

/** Tracks whether a promise has settled, without waiting for it. */
function watch<T>(promise: Promise<T>) {
  const state = { settled: false, promise };
  promise.then(
    () => (state.settled = true),
    () => (state.settled = true),
  );
  return state;
}

describe.skipIf(testDialect !== 'sqlite')('SQLite in worker threads (SQLite only)', () => {
  beforeEach(async () => {
    database = await createTestDatabase('sqlite');
    // As the app opens it, but a group may stay open for a minute: the test steps through one
    // at its own pace, however slow the machine.
    db = new Kysely<Database>({
      dialect: new SqliteWorkerDialect(file(), { units: 64, ms: 60_000 }),
    });
    await migrateToLatest(db);
    outside = new DatabaseSync(file(), { readOnly: true });
  });

  afterEach(async () => {
    outside.close();
    await db.destroy();
    await database.drop();
  });

  it('answers a commit only once the group it joined is committed to the file', async () => {
    const first = await db.startTransaction().execute();
    await insertSetting(first, 'first');
    // The second transaction asks to begin while the first holds the writer: it waits its turn.
    const second = watch(db.startTransaction().execute());
    await settle();
    expect(second.settled).toBe(false);

    const firstCommit = watch(first.commit().execute());
    const secondTransaction = await second.promise;
    // The first released its savepoint and the second runs in the same group: nothing is
    // committed yet, and the first caller has no answer.
    await insertSetting(secondTransaction, 'second');
    expect(settingOutside('first')).toBeUndefined();
    expect(firstCommit.settled).toBe(false);

    await secondTransaction.commit().execute();
    await firstCommit.promise;
    expect(settingOutside('first')).toEqual({ value: 'first' });
    expect(settingOutside('second')).toEqual({ value: 'second' });
  });

  it('commits a group at six transactions, so their answers go back while the next ones run', async () => {
    expect(defaultGroupLimits.units).toBe(6);
    // As the app opens it, but with the others' minute (a slow machine would otherwise cut the
    // group at 10 ms, before its sixth); the database of the other tests stays idle meanwhile.
    const app = new Kysely<Database>({
      dialect: new SqliteWorkerDialect(file(), { ...defaultGroupLimits, ms: 60_000 }),
    });
    try {
      const holding = await app.startTransaction().execute();
      await insertSetting(holding, 'held');
      // Six lone writes and a second transaction queue behind the first.
      const lone = ['l1', 'l2', 'l3', 'l4', 'l5', 'l6'].map((key) =>
        watch(insertSetting(app, key)),
      );
      // Queued before the second transaction asks to begin, whatever order Kysely sends them in.
      await settle();
      const later = app.startTransaction().execute();
      await settle();
      const firstCommit = watch(holding.commit().execute());
      // The second transaction begins after the sixth write, in a group that it keeps open.
      const laterTransaction = await later;
      await settle();
      // The first group (the transaction and five writes) was committed and answered by then.
      expect(firstCommit.settled).toBe(true);
      expect(lone.slice(0, 5).every((write) => write.settled)).toBe(true);
      expect(settingOutside('held')).toEqual({ value: 'held' });
      expect(settingOutside('l5')).toEqual({ value: 'l5' });
      expect(lone[5]?.settled).toBe(false);
      expect(settingOutside('l6')).toBeUndefined();
      await laterTransaction.commit().execute();
      await lone[5]?.promise;
      expect(settingOutside('l6')).toEqual({ value: 'l6' });
    } finally {
      await app.destroy();
    }
  });

  it('rolls back one transaction of a group and commits the others', async () => {
    const first = await db.startTransaction().execute();
    await insertSetting(first, 'kept');
    const second = db
      .transaction()
      .execute(async (trx) => {
        await insertSetting(trx, 'undone');
        // A duplicate key: the statement fails and the whole transaction is rolled back.
        await insertSetting(trx, 'kept');
      })
      .then(
        () => null,
        (error: unknown) => error,
      );
    const third = db.transaction().execute((trx) => insertSetting(trx, 'also kept'));
    await settle();
    await first.commit().execute();
    const failure = await second;
    expect(failure instanceof Error && failure.message).toMatch(/UNIQUE constraint failed/);
    await third;
    expect(settingOutside('kept')).toEqual({ value: 'kept' });
    expect(settingOutside('undone')).toBeUndefined();
    expect(settingOutside('also kept')).toEqual({ value: 'also kept' });
  });

  it('answers reads outside a transaction from committed data only', async () => {
    const writing = await db.startTransaction().execute();
    await insertSetting(writing, 'pending');
    const read = () =>
      db
        .selectFrom('instance_settings')
        .select('value')
        .where('key', '=', 'pending' as SettingKey)
        .executeTakeFirst();
    // Not blocked by the open transaction, and blind to it.
    expect(await read()).toBeUndefined();
    await writing.commit().execute();
    expect(await read()).toEqual({ value: 'pending' });
  });

  it('runs a lone write after the transaction holding the writer, and answers it once committed', async () => {
    const holding = await db.startTransaction().execute();
    const lone = watch(insertSetting(db, 'lone'));
    await settle();
    expect(lone.settled).toBe(false);
    await holding.rollback().execute();
    await lone.promise;
    expect(settingOutside('lone')).toEqual({ value: 'lone' });
  });

  it('opens readers that cannot write', () => {
    const reader = openSqlite(file(), { readOnly: true });
    try {
      expect(() =>
        reader.exec(`insert into instance_settings (key, value, updated_at) values ('x', 'x', 0)`),
      ).toThrow(/readonly/);
    } finally {
      reader.close();
    }
  });

  it('keeps a reader free of slow reads, so a quick read never waits behind them', async () => {
    // Long enough (counting two million rows) to still run when the quick read is answered.
    const slow = sql<{ n: number }>`select (with recursive i(v) as (select 1 union all
      select v + 1 from i where v < 2000000) select count(*) from i) as n ${inSlowReadLane}`;
    const slowReads = [watch(slow.execute(db)), watch(slow.execute(db))];
    await settle();
    const quick = await sql<{ one: number }>`select 1 as one`.execute(db);
    expect(quick.rows).toEqual([{ one: 1 }]);
    // Both slow reads were sent first; neither had finished when the quick one was answered.
    expect(slowReads.filter((read) => read.settled)).toHaveLength(0);
    for (const read of slowReads) expect((await read.promise).rows).toEqual([{ n: 2000000 }]);
  });
});
