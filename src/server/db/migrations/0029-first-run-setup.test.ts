import type { Kysely } from 'kysely';
import { Migrator } from 'kysely/migration';
import { afterEach, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../../../tests/db.ts';
import { createDb, type Db } from '../database.ts';
import { migrations } from './index.ts';

let database: TestDatabase | undefined;
let db: Db | undefined;

/**
 * The tables as this migration left them, under their names of the time: the settings were the
 * account's (`user_preferences`), the clients their owner's.
 */
interface OldTables {
  user_preferences: {
    user_id: string;
    disable_balance_on_add: number;
    disable_balance_on_edit: number;
    updated_at: number;
    main_currency?: string;
    setup_outcome?: string | null;
  };
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
}

afterEach(async () => {
  await db?.kysely.destroy();
  await database?.drop();
});

describe('the first-run setup migration', () => {
  it('counts an owner who already keeps clients as set up, with or without saved settings', async () => {
    database = await createTestDatabase();
    db = createDb(database.config);
    const migrator = new Migrator({
      db: db.kysely,
      provider: { getMigrations: () => Promise.resolve(migrations) },
    });
    expect((await migrator.migrateTo('0028-client-links')).error).toBeUndefined();
    const kysely = db.kysely;
    const owners = ['with-settings', 'without-settings', 'no-clients'];
    await kysely
      .insertInto('users')
      .values(
        owners.map((id) => ({
          id,
          email: `${id}@example.com`,
          email_key: `${id}@example.com`,
          password_hash: 'x',
          is_admin: 0,
          created_at: 0,
        })),
      )
      .execute();
    const old = kysely as unknown as Kysely<OldTables>;
    await old
      .insertInto('user_preferences')
      .values(
        ['with-settings', 'no-clients'].map((user_id) => ({
          user_id,
          disable_balance_on_add: 1,
          disable_balance_on_edit: 0,
          updated_at: 0,
        })),
      )
      .execute();
    await old
      .insertInto('clients')
      .values(
        ['with-settings', 'without-settings', 'without-settings'].map((owner, index) => ({
          id: `c${index}`,
          owner_id: owner,
          first_name: 'Ada',
          last_name: 'Lovelace',
          name_key: 'ada lovelace',
          email: `c${index}@example.com`,
          phone: '0123456789',
          balance: 0,
          currency: 'USD' as const,
          version: 1,
          created_at: 0,
          updated_at: 0,
        })),
      )
      .execute();

    expect((await migrator.migrateTo('0029-first-run-setup')).error).toBeUndefined();

    const rows = await old
      .selectFrom('user_preferences')
      .select(['user_id', 'setup_outcome', 'main_currency', 'disable_balance_on_add'])
      .orderBy('user_id')
      .execute();
    expect(rows).toEqual([
      {
        user_id: 'no-clients',
        setup_outcome: null,
        main_currency: 'USD',
        disable_balance_on_add: 1,
      },
      {
        user_id: 'with-settings',
        setup_outcome: 'done',
        main_currency: 'USD',
        disable_balance_on_add: 1,
      },
      {
        user_id: 'without-settings',
        setup_outcome: 'done',
        main_currency: 'USD',
        disable_balance_on_add: 0,
      },
    ]);
  });
});
