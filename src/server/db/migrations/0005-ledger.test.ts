import type { Kysely } from 'kysely';
import { Migrator } from 'kysely/migration';
import { afterEach, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../../../tests/db.ts';
import { createDb, type Db } from '../database.ts';
import { migrateToLatest } from '../migrate.ts';
import { migrations } from './index.ts';

let database: TestDatabase | undefined;
let db: Db | undefined;

/** The rows the code before this migration wrote, as it named them (the owner's, not a book's). */
interface OldTables {
  clients: {
    id: string;
    owner_id: string;
    first_name: string;
    last_name: string;
    name_key: string;
    email: string;
    phone: string;
    balance: number;
    currency: string;
    version: number;
    created_at: number;
    updated_at: number;
  };
  events: {
    owner_id: string;
    client_id: string;
    action: string;
    at: number;
    version: number;
    before: string;
    after: string;
  };
}

afterEach(async () => {
  await db?.kysely.destroy();
  await database?.drop();
});

describe('the ledger migration', () => {
  it('turns every balance into an opening entry dated when it was last set, keeping the history', async () => {
    database = await createTestDatabase();
    db = createDb(database.config);
    const migrator = new Migrator({
      db: db.kysely,
      provider: { getMigrations: () => Promise.resolve(migrations) },
    });
    const before = await migrator.migrateTo('0004-client-list-indexes');
    expect(before.error).toBeUndefined();

    const kysely = db.kysely;
    await kysely
      .insertInto('users')
      .values({
        id: 'owner',
        email: 'owner@example.com',
        email_key: 'owner@example.com',
        password_hash: 'x',
        is_admin: 1,
        created_at: 0,
      })
      .execute();
    const old = kysely as unknown as Kysely<OldTables>;
    const client = (id: string, balance: number, currency: 'USD' | 'KRW', updatedAt: number) => ({
      id,
      owner_id: 'owner',
      first_name: 'Ada',
      last_name: id,
      name_key: `ada ${id}`,
      email: `${id}@example.com`,
      phone: '+44 20 7946 0018',
      balance,
      currency,
      version: 3,
      created_at: Date.UTC(2025, 0, 1),
      updated_at: updatedAt,
    });
    await old
      .insertInto('clients')
      .values([
        client('owes', 123_45, 'USD', Date.UTC(2026, 2, 14, 23, 59)),
        client('credit', -3_000, 'KRW', Date.UTC(2026, 5, 1, 0, 0, 1)),
        client('settled', 0, 'USD', Date.UTC(2026, 6, 1)),
      ])
      .execute();
    // What the log held before: the history must come through untouched.
    await old
      .insertInto('events')
      .values({
        owner_id: 'owner',
        client_id: 'owes',
        action: 'balance_changed',
        at: Date.UTC(2026, 2, 14),
        version: 3,
        before: JSON.stringify({ balance: 1 }),
        after: JSON.stringify({ balance: 123_45 }),
      })
      .execute();

    await migrateToLatest(kysely);

    const entries = await kysely
      .selectFrom('entries')
      .select(['client_id', 'kind', 'amount', 'currency', 'occurred_on', 'created_by', 'void_of'])
      .orderBy('client_id')
      .execute();
    expect(entries).toEqual([
      {
        client_id: 'credit',
        kind: 'opening',
        amount: -3_000,
        currency: 'KRW',
        occurred_on: '2026-06-01',
        created_by: 'owner',
        void_of: null,
      },
      {
        client_id: 'owes',
        kind: 'opening',
        amount: 123_45,
        currency: 'USD',
        occurred_on: '2026-03-14',
        created_by: 'owner',
        void_of: null,
      },
    ]);
    const events = await kysely.selectFrom('events').selectAll().execute();
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ action: 'balance_changed', detail: null, version: 3 });
    const balances = await kysely
      .selectFrom('clients')
      .select(['id', 'balance'])
      .orderBy('id')
      .execute();
    expect(balances).toEqual([
      { id: 'credit', balance: -3_000 },
      { id: 'owes', balance: 123_45 },
      { id: 'settled', balance: 0 },
    ]);
  });
});
