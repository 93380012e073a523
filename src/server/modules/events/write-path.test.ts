import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../../../tests/app.ts';
import { joinAs } from '../../../../tests/auth.ts';
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
    .selectFrom('user_preferences')
    .select('disable_balance_on_add')
    .where('user_id', '=', userId)
    .execute();

const writeRow = (userId: string) => ({
  user_id: userId,
  disable_balance_on_add: 1,
  disable_balance_on_edit: 0,
  updated_at: Date.now(),
});

describe('the write path', () => {
  it('refuses a change that records no event, and keeps nothing of it', async () => {
    const owner = await joinAs(testApp.app);
    await expect(
      testApp.app.writes.change(owner.userId, async ({ trx }) => {
        await trx.insertInto('user_preferences').values(writeRow(owner.userId)).execute();
      }),
    ).rejects.toThrow('a change of an owner’s data must record an event');
    expect(await preferencesOf(owner.userId)).toEqual([]);
  });

  it('rolls back a change that finds nothing to do and answers its value', async () => {
    const owner = await joinAs(testApp.app);
    const answer = await testApp.app.writes.change(owner.userId, async ({ trx }) => {
      await trx.insertInto('user_preferences').values(writeRow(owner.userId)).execute();
      return unchanged('nothing to do');
    });
    expect(answer).toBe('nothing to do');
    expect(await preferencesOf(owner.userId)).toEqual([]);
  });

  it('commits the rows with their event', async () => {
    const owner = await joinAs(testApp.app);
    await testApp.app.writes.change(owner.userId, async ({ trx, record }) => {
      await trx.insertInto('user_preferences').values(writeRow(owner.userId)).execute();
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
      .where('owner_id', '=', owner.userId)
      .execute();
    expect(events).toEqual([{ action: 'settings_changed' }]);
  });
});
