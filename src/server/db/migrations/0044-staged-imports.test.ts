import type { Kysely } from 'kysely';
import { describe, expect, it } from 'vitest';
import { oldDatabases } from '../../../../tests/old-database.ts';
import { countUsers, listUsers } from '../../modules/auth/accounts.queries.ts';
import { countClients } from '../../modules/clients/clients.queries.ts';

const databaseAt = oldDatabases();

/** The tables as this migration left them, under their names of the time (the owner's rows). */
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
  staged_imports: { id: string; owner_id: string; started_at: number };
}

describe('the staged imports migration', () => {
  it('keeps the accounts and their clients as they were, with no import staged', async () => {
    const { db, migrateTo, migrateToLatest } = await databaseAt('0042-business-tax-id', {
      isAdmin: true,
    });
    const kysely = db.kysely;
    const old = kysely as unknown as Kysely<OldTables>;
    await old
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

    expect(await old.selectFrom('staged_imports').selectAll().execute()).toEqual([]);
    // On to the latest, where the accounts and clients are counted as the app counts them now.
    await migrateToLatest();
    expect(await countUsers(kysely)).toBe(1);
    expect((await listUsers(kysely)).map((user) => [user.id, Number(user.clients)])).toEqual([
      ['owner', 1],
    ]);
    expect(await countClients(kysely, { bookId: 'owner' })).toBe(1);
  });
});
