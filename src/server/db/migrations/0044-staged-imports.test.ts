import { describe, expect, it } from 'vitest';
import { oldDatabases } from '../../../../tests/old-database.ts';
import { countUsers, listUsers } from '../../modules/auth/accounts.queries.ts';
import { countClients } from '../../modules/clients/clients.queries.ts';

const databaseAt = oldDatabases();

describe('the staged imports migration', () => {
  it('keeps the accounts and their clients as they were, with no import staged', async () => {
    const { db, migrateTo } = await databaseAt('0042-business-tax-id', { isAdmin: true });
    const kysely = db.kysely;
    await kysely
      .insertInto('clients')
      .values({
        id: 'c1',
        owner_id: 'owner',
        first_name: 'Min',
        last_name: 'Kim',
        name_key: 'kim min',
        email: 'min@example.com',
        phone: '',
        balance: 0,
        currency: 'KRW',
        version: 1,
        created_at: 0,
        updated_at: 0,
      })
      .execute();

    await migrateTo('0044-staged-imports');

    expect(await kysely.selectFrom('staged_imports').selectAll().execute()).toEqual([]);
    expect(await countUsers(kysely)).toBe(1);
    expect((await listUsers(kysely)).map((user) => [user.id, Number(user.clients)])).toEqual([
      ['owner', 1],
    ]);
    expect(await countClients(kysely, { ownerId: 'owner' })).toBe(1);
  });
});
