import type { Kysely } from 'kysely';
import { Migrator } from 'kysely/migration';
import { afterEach, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../../../tests/db.ts';
import { keptSums, recomputedSums } from '../../../../tests/kept-sums.ts';
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
    oldest_due_on: string | null;
  };
  entries: {
    owner_id: string;
    client_id: string;
    kind: string;
    amount: number;
    currency: string;
    occurred_on: string;
    due_on: string | null;
    note: string;
    void_of: number | null;
    created_by: string | null;
    created_at: number;
    open_amount: number;
  };
}

afterEach(async () => {
  await db?.kysely.destroy();
  await database?.drop();
});

describe('the kept sums migration', () => {
  it('fills each owner’s sums from the clients and entries made before it', async () => {
    database = await createTestDatabase();
    db = createDb(database.config);
    const migrator = new Migrator({
      db: db.kysely,
      provider: { getMigrations: () => Promise.resolve(migrations) },
    });
    expect((await migrator.migrateTo('0036-payer-rule-origin')).error).toBeUndefined();
    const kysely = db.kysely;
    const owners = ['first', 'second'];
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
    // 1,200 clients of the first owner (beyond one batch), in two currencies: owing with an
    // unpaid charge, in credit, settled; the second owner has three.
    const clients = Array.from({ length: 1203 }, (_, index) => {
      const balance = index % 3 === 0 ? 1000 + index : index % 3 === 1 ? -(500 + index) : 0;
      const day = `2026-0${1 + (index % 9)}-1${index % 10}`;
      return {
        id: `c${String(index).padStart(5, '0')}`,
        owner_id: index < 1200 ? 'first' : 'second',
        first_name: 'Ana',
        last_name: `Núñez ${index}`,
        name_key: `ana nunez ${index}`,
        email: `c${index}@example.com`,
        phone: '0123456789',
        balance,
        currency: index % 2 === 0 ? ('USD' as const) : ('KRW' as const),
        version: 1,
        created_at: 0,
        updated_at: 0,
        oldest_due_on: balance > 0 ? day : null,
        day,
      };
    });
    const old = kysely as unknown as Kysely<OldTables>;
    for (let start = 0; start < clients.length; start += 200)
      await old
        .insertInto('clients')
        .values(clients.slice(start, start + 200).map(({ day: _day, ...row }) => row))
        .execute();
    const entries = clients.flatMap((client) => {
      const opening = {
        owner_id: client.owner_id,
        client_id: client.id,
        kind: 'opening' as const,
        amount: client.balance,
        currency: client.currency,
        occurred_on: client.day,
        due_on: null,
        note: '',
        void_of: null,
        created_by: null,
        created_at: 0,
        open_amount: Math.max(client.balance, 0),
      };
      if (client.balance <= 0) return [opening];
      // Half of those owing: a charge due later, half paid, beside an opening paid in part.
      const part = Math.floor(client.balance / 2);
      return [
        { ...opening, open_amount: client.balance - part },
        {
          ...opening,
          kind: 'charge' as const,
          amount: part,
          due_on: '2026-11-30',
          open_amount: part,
        },
        { ...opening, kind: 'payment' as const, amount: -part, open_amount: 0 },
      ];
    });
    for (let start = 0; start < entries.length; start += 200)
      await old
        .insertInto('entries')
        .values(entries.slice(start, start + 200))
        .execute();

    await migrateToLatest(kysely);

    for (const owner of owners)
      expect(await keptSums(kysely, owner)).toEqual(await recomputedSums(kysely, owner));
    const first = await keptSums(kysely, 'first');
    expect(first.clients.map((row) => [row.currency, row.clients])).toEqual([
      ['KRW', '600'],
      ['USD', '600'],
    ]);
    expect(first.days.some((row) => row.day === '2026-11-30' && row.open !== '0')).toBe(true);
    expect(first.days.some((row) => row.clients !== '0' && row.balance !== '0')).toBe(true);
    expect((await keptSums(kysely, 'second')).clients).toHaveLength(2);
  });
});
