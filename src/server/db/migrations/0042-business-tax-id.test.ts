import { describe, expect, it } from 'vitest';
import { oldDatabases } from '../../../../tests/old-database.ts';
import { readBusiness } from '../../modules/settings/settings.queries.ts';

const databaseAt = oldDatabases();

describe('the business tax id migration', () => {
  it('keeps the business as it was, with no tax id', async () => {
    const { db, migrateTo } = await databaseAt('0041-payment-methods');
    const kysely = db.kysely;
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

    await migrateTo('0042-business-tax-id');

    expect(await readBusiness(kysely, 'owner')).toEqual({
      name: '한빛 상사',
      address: '서울특별시 중구 세종대로 110',
      paymentDetails: '국민은행 123-456-789012',
      taxId: '',
    });
  });
});
