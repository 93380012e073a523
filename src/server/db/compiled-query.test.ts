import type { Insertable } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../../tests/app.ts';
import { joinAs } from '../../../tests/auth.ts';
import { compiledQuery } from './compiled-query.ts';
import type { Database } from './database.ts';

let testApp: TestApp;

type TokenRow = Insertable<Database['access_tokens']>;

const tokenRow = (userId: string, n: number): TokenRow => ({
  id: `${userId}-token-${n}`,
  user_id: userId,
  name: `token ${n}`,
  token_hash: `${userId}-hash-${n}`,
  read_only: n % 2,
  created_at: 1_000 + n,
  last_used_at: n % 2 === 0 ? null : 2_000 + n,
  expires_at: n % 2 === 0 ? 3_000 + n : null,
});

const tokensOf = (userId: string) =>
  testApp.app.db.kysely
    .selectFrom('access_tokens')
    .selectAll()
    .where('user_id', '=', userId)
    .orderBy('id')
    .execute();

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

  it('binds every key of a row argument, the insert built once', async () => {
    const { kysely } = testApp.app.db;
    const owner = await joinAs(testApp.app);
    let builds = 0;
    const insertToken = compiledQuery((db, row: TokenRow) => {
      builds += 1;
      return db.insertInto('access_tokens').values(row);
    });
    const rows = [1, 2, 3].map((n) => tokenRow(owner.userId, n));
    for (const row of rows) {
      await kysely.transaction().execute(async (trx) => {
        await insertToken(trx, row);
      });
    }
    // The same keys in another order name the same columns.
    const { expires_at, last_used_at, ...rest } = tokenRow(owner.userId, 4);
    const reordered = { expires_at, last_used_at, ...rest };
    await insertToken(kysely, reordered);
    expect(await tokensOf(owner.userId)).toEqual([...rows, reordered]);
    expect(builds).toBe(1);
  });

  it('refuses a later row argument with other keys, and writes nothing', async () => {
    const { kysely } = testApp.app.db;
    const owner = await joinAs(testApp.app);
    const insertToken = compiledQuery((db, row: TokenRow) =>
      db.insertInto('access_tokens').values(row),
    );
    const first = tokenRow(owner.userId, 1);
    await insertToken(kysely, first);
    const { expires_at: _expires, ...missing } = tokenRow(owner.userId, 2);
    const extra = { ...tokenRow(owner.userId, 3), note: 'not a column of the compiled SQL' };
    // As many keys as compiled, one of them another.
    const { expires_at: _unused, ...rest } = tokenRow(owner.userId, 5);
    const swapped = { ...rest, note: 'in place of expires_at' };
    // Kysely would leave an undefined column out; the compiled SQL cannot.
    const unset = { ...tokenRow(owner.userId, 4), expires_at: undefined };
    for (const [row, problem] of [
      [missing, /without a value: expires_at$/],
      [extra, /not compiled: note$/],
      [swapped, /without a value: expires_at; not compiled: note$/],
      [unset, /without a value: expires_at$/],
    ] as const) {
      await expect(insertToken(kysely, row)).rejects.toThrow(problem);
    }
    expect(await tokensOf(owner.userId)).toEqual([first]);
  });

  it('refuses a key left undefined even on the first call, which builds the query', async () => {
    const owner = await joinAs(testApp.app);
    const insertToken = compiledQuery((db, row: TokenRow) =>
      db.insertInto('access_tokens').values(row),
    );
    const unset = { ...tokenRow(owner.userId, 1), last_used_at: undefined };
    await expect(insertToken(testApp.app.db.kysely, unset)).rejects.toThrow(
      /without a value: last_used_at$/,
    );
    expect(await tokensOf(owner.userId)).toEqual([]);
  });

  it('refuses a row argument whose key is not bound as it was given', async () => {
    const owner = await joinAs(testApp.app);
    const insertShouting = compiledQuery((db, row: TokenRow) =>
      db.insertInto('access_tokens').values({ ...row, name: row.name.toUpperCase() }),
    );
    await expect(insertShouting(testApp.app.db.kysely, tokenRow(owner.userId, 1))).rejects.toThrow(
      /key "name" of argument 0 is not a bound value/,
    );
    expect(await tokensOf(owner.userId)).toEqual([]);
  });
});
