import type { Kysely } from 'kysely';
import { describe, expect, it } from 'vitest';
import { oldDatabases } from '../../../../tests/old-database.ts';
import { listClientsPage } from '../../modules/clients/clients.queries.ts';

const databaseAt = oldDatabases();

/** A client's row as the code before 0040 wrote it: its owner's, with no business columns yet. */
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
    oldest_due_on?: string | null;
  };
}

describe('the business clients migration', () => {
  it('keeps every client made before as a person, with empty business fields, in its place', async () => {
    const { database, db, migrateToLatest } = await databaseAt('0039-reminder-next-run');
    const kysely = db.kysely;
    // Written as the code before 0040 wrote a client's row (no business columns yet).
    await (kysely as unknown as Kysely<OldTables>)
      .insertInto('clients')
      .values(
        [
          ['b', 'Saebom', 'Publishing', 'saebom publishing'],
          ['a', '민준', '김', '김민준'],
        ].map(([id, first, last, key]) => ({
          id: id!,
          owner_id: 'owner',
          first_name: first!,
          last_name: last!,
          name_key: key!,
          email: `${id}@example.com`,
          phone: '+82 10 1234 5678',
          balance: 5_000,
          currency: 'KRW',
          version: 1,
          created_at: 0,
          updated_at: 0,
        })),
      )
      .execute();

    await migrateToLatest();

    const rows = await kysely
      .selectFrom('clients')
      .select([
        'id',
        'company',
        'address_line1',
        'address_line2',
        'city',
        'postcode',
        'country',
        'tax_id',
        'notes',
        'name_key',
      ])
      .orderBy('id')
      .execute();
    const empty = {
      company: '',
      address_line1: '',
      address_line2: '',
      city: '',
      postcode: '',
      country: '',
      tax_id: '',
      notes: '',
    };
    expect(rows).toEqual([
      { id: 'a', ...empty, name_key: '김민준' },
      { id: 'b', ...empty, name_key: 'saebom publishing' },
    ]);
    const page = await listClientsPage(
      kysely,
      { bookId: 'owner', search: 'saebom', dialect: database.config.dialect },
      { sort: 'name', dir: 'asc', limit: 10 },
    );
    expect(page.clients.map((client) => [client.id, client.company, client.notes])).toEqual([
      ['b', '', ''],
    ]);
  });
});
