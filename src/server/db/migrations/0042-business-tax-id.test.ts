import { Migrator } from 'kysely/migration';
import { afterEach, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../../../tests/db.ts';
import { readBusiness } from '../../modules/settings/settings.queries.ts';
import { createDb, type Db } from '../database.ts';
import { migrations } from './index.ts';

let database: TestDatabase | undefined;
let db: Db | undefined;

afterEach(async () => {
  await db?.kysely.destroy();
  await database?.drop();
});

describe('the business tax id migration', () => {
  it('keeps the business as it was, with no tax id', async () => {
    database = await createTestDatabase();
    db = createDb(database.config);
    const migrator = new Migrator({
      db: db.kysely,
      provider: { getMigrations: () => Promise.resolve(migrations) },
    });
    expect((await migrator.migrateTo('0041-payment-methods')).error).toBeUndefined();
    const kysely = db.kysely;
    await kysely
      .insertInto('users')
      .values({
        id: 'owner',
        email: 'owner@example.com',
        email_key: 'owner@example.com',
        password_hash: 'x',
        is_admin: 0,
        created_at: 0,
      })
      .execute();
    await kysely
      .insertInto('user_preferences')
      .values({
        user_id: 'owner',
        disable_balance_on_add: 0,
        disable_balance_on_edit: 0,
        business_name: '한빛 상사',
        business_address: '서울특별시 중구 세종대로 110',
        business_payment_details: '국민은행 123-456-789012',
        updated_at: 0,
      })
      .execute();

    expect((await migrator.migrateTo('0042-business-tax-id')).error).toBeUndefined();

    expect(await readBusiness(kysely, 'owner')).toEqual({
      name: '한빛 상사',
      address: '서울특별시 중구 세종대로 110',
      paymentDetails: '국민은행 123-456-789012',
      taxId: '',
    });
  });
});
