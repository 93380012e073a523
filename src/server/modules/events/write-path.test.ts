import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../../../tests/app.ts';
import { joinAs } from '../../../../tests/auth.ts';
import { testDialect } from '../../../../tests/db.ts';
import { unchanged } from './write-path.ts';

let testApp: TestApp;

beforeAll(async () => {
  testApp = await buildTestApp();
});

afterAll(async () => {
  await testApp.close();
});

const preferencesOf = (userId: string) =>
  testApp.app.db.kysely
    .selectFrom('book_settings')
    .select('disable_balance_on_add')
    .where('book_id', '=', userId)
    .execute();

const writeRow = (userId: string) => ({
  book_id: userId,
  disable_balance_on_add: 1,
  disable_balance_on_edit: 0,
  updated_at: Date.now(),
});

describe('the write path', () => {
  it('refuses a change that records no event, and keeps nothing of it', async () => {
    const owner = await joinAs(testApp.app);
    await expect(
      testApp.app.writes.change(owner.userId, async ({ trx }) => {
        await trx.insertInto('book_settings').values(writeRow(owner.userId)).execute();
      }),
    ).rejects.toThrow('a change of an owner’s data must record an event');
    expect(await preferencesOf(owner.userId)).toEqual([]);
  });

  it('rolls back a change that finds nothing to do and answers its value', async () => {
    const owner = await joinAs(testApp.app);
    const answer = await testApp.app.writes.change(owner.userId, async ({ trx }) => {
      await trx.insertInto('book_settings').values(writeRow(owner.userId)).execute();
      return unchanged('nothing to do');
    });
    expect(answer).toBe('nothing to do');
    expect(await preferencesOf(owner.userId)).toEqual([]);
  });

  it('commits the rows with their event', async () => {
    const owner = await joinAs(testApp.app);
    await testApp.app.writes.change(owner.userId, async ({ trx, record }) => {
      await trx.insertInto('book_settings').values(writeRow(owner.userId)).execute();
      await record({
        clientId: null,
        action: 'settings_changed',
        version: 0,
        before: null,
        after: null,
      });
    });
    expect(await preferencesOf(owner.userId)).toEqual([{ disable_balance_on_add: 1 }]);
    const events = await testApp.app.db.kysely
      .selectFrom('events')
      .select('action')
      .where('book_id', '=', owner.userId)
      .execute();
    expect(events).toEqual([{ action: 'settings_changed' }]);
  });
});

// On SQLite a change of this kind holds the one writer whoever makes it, and the owners' own
// changes (commands) take turns in the writer instead (db/sqlite/writer.test.ts).
describe.skipIf(testDialect !== 'postgres')(
  'the write path on PostgreSQL (PostgreSQL only)',
  () => {
    it('keeps another owner’s change from waiting for a connection behind one owner’s many', async () => {
      const [busy, other] = [await joinAs(testApp.app), await joinAs(testApp.app)];
      let release!: () => void;
      const held = new Promise<void>((resolve) => (release = resolve));
      let started = 0;
      const event = {
        clientId: null,
        action: 'settings_changed',
        version: 0,
        before: null,
        after: null,
      } as const;
      // More changes than the pool has connections (10), each holding one until released.
      const busyChanges = Array.from({ length: 12 }, () =>
        testApp.app.writes.change(busy.userId, async ({ trx, record }) => {
          started++;
          await sql`select 1`.execute(trx);
          await held;
          await record(event);
        }),
      );
      try {
        // Two of them hold connections, the second waiting for the owner's turn inside its
        // transaction (decision 035); the rest wait in the gate (at most 5 s: this test's own
        // waits, 2 s each, end well before any of them is refused).
        const since = Date.now();
        while (started < 1 && Date.now() - since < 2000)
          await new Promise((resolve) => setTimeout(resolve, 5));
        const otherChange = testApp.app.writes.change(other.userId, async ({ record }) => {
          await record(event);
          return 'done';
        });
        const gaveUp = new Promise((resolve) => setTimeout(() => resolve('still waiting'), 2000));
        expect(await Promise.race([otherChange, gaveUp])).toBe('done');
        expect(started).toBe(1);
      } finally {
        release();
        await Promise.all(busyChanges);
      }
      expect(started).toBe(12);
    });
  },
);
