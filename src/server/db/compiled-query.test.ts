import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../../tests/app.ts';
import { joinAs } from '../../../tests/auth.ts';
import { compiledQuery } from './compiled-query.ts';

let testApp: TestApp;

beforeAll(async () => {
  testApp = await buildTestApp();
});

afterAll(async () => {
  await testApp.close();
});

describe('compiledQuery', () => {
  it('runs the query built once with each call’s own arguments', async () => {
    const { kysely } = testApp.app.db;
    const first = await joinAs(testApp.app);
    const second = await joinAs(testApp.app);
    const emailOf = compiledQuery((db, id: string) =>
      db.selectFrom('users').select(['email']).where('id', '=', id).where('email', '<>', ''),
    );
    expect((await emailOf(kysely, first.userId)).rows).toEqual([{ email: first.email }]);
    expect((await emailOf(kysely, second.userId)).rows).toEqual([{ email: second.email }]);
    expect((await emailOf(kysely, 'no such id')).rows).toEqual([]);
    // Inside a transaction too, on that transaction's connection.
    await kysely.transaction().execute(async (trx) => {
      expect((await emailOf(trx, second.userId)).rows).toEqual([{ email: second.email }]);
    });
  });

  it('builds the query once for a database and all of its transactions', async () => {
    const { kysely } = testApp.app.db;
    const owner = await joinAs(testApp.app);
    let builds = 0;
    const emailOf = compiledQuery((db, id: string) => {
      builds += 1;
      return db.selectFrom('users').select(['email']).where('id', '=', id);
    });
    // The write path's commands run each in a transaction of their own: a new Kysely object.
    for (let round = 0; round < 3; round++) {
      await kysely.transaction().execute(async (trx) => {
        expect((await emailOf(trx, owner.userId)).rows).toEqual([{ email: owner.email }]);
      });
    }
    expect((await emailOf(kysely, owner.userId)).rows).toEqual([{ email: owner.email }]);
    expect(builds).toBe(1);
  });

  it('binds arguments of any type, null among them', async () => {
    const { kysely } = testApp.app.db;
    const owner = await joinAs(testApp.app);
    const matching = compiledQuery((db, id: string, joinedAfter: number, email: string | null) =>
      db
        .selectFrom('users')
        .select(['id'])
        .where('id', '=', id)
        .where((eb) => eb.or([eb('email', '=', email), eb('created_at', '>', joinedAfter)])),
    );
    const never = Number.MAX_SAFE_INTEGER;
    expect((await matching(kysely, owner.userId, 0, null)).rows).toEqual([{ id: owner.userId }]);
    expect((await matching(kysely, owner.userId, never, owner.email)).rows).toEqual([
      { id: owner.userId },
    ]);
    expect((await matching(kysely, owner.userId, never, null)).rows).toEqual([]);
  });

  it('refuses a query that does not bind its argument as it was given', async () => {
    const byFoldedEmail = compiledQuery((db, email: string) =>
      db.selectFrom('users').select(['id']).where('email_key', '=', email.toLowerCase()),
    );
    await expect(byFoldedEmail(testApp.app.db.kysely, 'A@example.com')).rejects.toThrow(
      /an argument is not a bound value/,
    );
  });
});
