import { sql, type Kysely } from 'kysely';
import { describe, expect, it } from 'vitest';
import { testDialect } from '../../../../tests/db.ts';
import { oldDatabases } from '../../../../tests/old-database.ts';
import { migrateToLatest } from '../migrate.ts';

const databaseAt = oldDatabases();

/** The clients' rows as the code before this migration wrote them (the owner's, not a book's). */
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
}

describe('the folded name keys migration', () => {
  it('works out again the key of every client made before it, beyond one batch', async () => {
    const { db } = await databaseAt('0026-ledger-months', { isAdmin: true });
    const kysely = db.kysely;
    const named: [string, string][] = [
      ['Zoë', 'Saldaña'],
      ['Émilie', 'Dubois'],
      ['민준', '김'],
      ['Łukasz', 'Nowak'],
      ['Wei', 'Ming'],
    ];
    // Keys as the code before wrote them: "first last", lower-cased only. More rows than one batch.
    const rows = [
      ...named,
      ...Array.from({ length: 1200 }, (_, index): [string, string] => ['Ana', `Núñez ${index}`]),
    ].map(([firstName, lastName], index) => ({
      id: `c${String(index).padStart(5, '0')}`,
      owner_id: 'owner',
      first_name: firstName,
      last_name: lastName,
      name_key: `${firstName} ${lastName}`.normalize('NFC').toLowerCase(),
      email: `c${index}@example.com`,
      phone: '0123456789',
      balance: 0,
      currency: 'USD' as const,
      version: 1,
      created_at: 0,
      updated_at: 0,
    }));
    const old = kysely as unknown as Kysely<OldTables>;
    for (let start = 0; start < rows.length; start += 200)
      await old
        .insertInto('clients')
        .values(rows.slice(start, start + 200))
        .execute();

    await migrateToLatest(kysely);

    const keys = await kysely
      .selectFrom('clients')
      .select(['id', 'name_key'])
      .orderBy('name_key')
      .orderBy('id')
      .execute();
    expect(keys.slice(0, 2).map((row) => row.name_key)).toEqual(['ana nunez 0', 'ana nunez 1']);
    expect(keys.find((row) => row.id === 'c01204')?.name_key).toBe('ana nunez 1199');
    expect(keys.slice(-5).map((row) => row.name_key)).toEqual([
      'emilie dubois',
      'lukasz nowak',
      'wei ming',
      'zoe saldana',
      '김민준',
    ]);
    if (testDialect === 'sqlite') {
      // The search's trigram table follows the new keys (its trigger fires on the update).
      const found = await sql<{ id: string }>`
        select clients.id from clients where clients.rowid in
          (select rowid from clients_search where clients_search match '"emi" AND "ili" AND "lie"')`.execute(
        kysely,
      );
      expect(found.rows.map((row) => row.id)).toEqual(['c00001']);
    } else {
      // Compared by code point, as on SQLite, whatever the database's own collation.
      const column = await sql<{ collation: string }>`
        select collation_name as collation from information_schema.columns
        where table_name = 'clients' and column_name = 'name_key'`.execute(kysely);
      expect(column.rows[0]?.collation).toBe('C');
    }
  });
});
