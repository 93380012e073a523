import type { Generated, Kysely } from 'kysely';
import { describe, expect, it } from 'vitest';
import { oldDatabases } from '../../../../tests/old-database.ts';

const databaseAt = oldDatabases();

/** The rows as the code of this migration's time wrote them: the owner's, not a book's. */
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
  entries: {
    id: Generated<number>;
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
  payment_targets: {
    owner_id: string;
    client_id: string;
    payment_id: number;
    charge_id: number;
    amount: number | string;
  };
}

describe('the payment targets migration', () => {
  it('leaves the ledger as it was, and takes targets that go with their entries', async () => {
    const { db, migrateTo } = await databaseAt('0042-business-tax-id');
    const kysely = db.kysely as unknown as Kysely<OldTables>;
    await kysely
      .insertInto('clients')
      .values({
        id: 'client',
        owner_id: 'owner',
        first_name: 'Ana',
        last_name: 'Núñez',
        name_key: 'ana nunez',
        email: 'ana@example.com',
        phone: '0123456789',
        balance: 700,
        currency: 'USD',
        version: 4,
        created_at: 0,
        updated_at: 0,
        oldest_due_on: '2026-01-01',
      })
      .execute();
    const entry = (kind: 'opening' | 'payment' | 'charge', amount: number, open: number) => ({
      owner_id: 'owner',
      client_id: 'client',
      kind,
      amount,
      currency: 'USD' as const,
      occurred_on: '2026-01-01',
      due_on: null,
      note: kind,
      void_of: null,
      created_by: 'owner',
      created_at: 0,
      open_amount: open,
    });
    await kysely
      .insertInto('entries')
      .values([entry('opening', 1_000, 400), entry('charge', 300, 300), entry('payment', -600, 0)])
      .execute();
    const before = await kysely.selectFrom('entries').selectAll().orderBy('id').execute();

    await migrateTo('0043-payment-targets');

    expect(await kysely.selectFrom('entries').selectAll().orderBy('id').execute()).toEqual(before);
    const [, charge, payment] = before.map((row) => row.id);
    const target = (amount: number) =>
      kysely
        .insertInto('payment_targets')
        .values({
          owner_id: 'owner',
          client_id: 'client',
          payment_id: payment as number,
          charge_id: charge as number,
          amount,
        })
        .execute();
    await target(300);
    const rows = await kysely.selectFrom('payment_targets').selectAll().execute();
    expect(rows.map((row) => Number(row.amount))).toEqual([300]);
    // The same pair twice is refused.
    await expect(target(1)).rejects.toThrow();
    // A client's targets go with the client.
    await kysely.deleteFrom('entries').execute();
    await kysely.deleteFrom('clients').execute();
    expect(await kysely.selectFrom('payment_targets').selectAll().execute()).toEqual([]);
  });
});
