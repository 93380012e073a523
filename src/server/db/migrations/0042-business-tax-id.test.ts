import type { Kysely } from 'kysely';
import { describe, expect, it } from 'vitest';
import { oldDatabases } from '../../../../tests/old-database.ts';
import { readBusiness } from '../../modules/settings/settings.queries.ts';

const databaseAt = oldDatabases();

/** The settings as the code before this migration wrote them: the account's, not a book's. */
interface OldTables {
  user_preferences: {
    user_id: string;
    disable_balance_on_add: number;
    disable_balance_on_edit: number;
    business_name: string;
    business_address: string;
    business_payment_details: string;
    updated_at: number;
  };
}

describe('the business tax id migration', () => {
  it('keeps the business as it was, with no tax id', async () => {
    const { db, migrateTo, migrateToLatest } = await databaseAt('0041-payment-methods');
    const kysely = db.kysely;
    await (kysely as unknown as Kysely<OldTables>)
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

    await migrateTo('0042-business-tax-id');
    // On to the latest, where the settings are read as the app reads them now (the book's).
    await migrateToLatest();

    expect(await readBusiness(kysely, 'owner')).toEqual({
      name: '한빛 상사',
      address: '서울특별시 중구 세종대로 110',
      paymentDetails: '국민은행 123-456-789012',
      taxId: '',
    });
  });
});
