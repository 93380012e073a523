import type { Generated, Kysely } from 'kysely';
import { describe, expect, it } from 'vitest';
import { oldDatabases } from '../../../../tests/old-database.ts';

const databaseAt = oldDatabases();

/** The rows as the code before this migration wrote them: the owner's, not a book's. */
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
  bank_batches: {
    id: string;
    owner_id: string;
    account_label: string;
    currency: string;
    created_at: number;
    undone_at: number | null;
  };
  bank_lines: { owner_id: string; line_id: string; batch_id: string; created_at: number };
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
    bank_line_id?: string | null;
    payment_method?: string | null;
  };
}

describe('the payment methods migration', () => {
  it('leaves the payments made before it without a method, but a bank statement’s a transfer', async () => {
    const { db, migrateTo } = await databaseAt('0039-reminder-next-run');
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
    await kysely
      .insertInto('bank_batches')
      .values({
        id: 'batch',
        owner_id: 'owner',
        account_label: 'Maybank',
        currency: 'USD',
        created_at: 0,
        undone_at: null,
      })
      .execute();
    await kysely
      .insertInto('bank_lines')
      .values({ owner_id: 'owner', line_id: 'line', batch_id: 'batch', created_at: 0 })
      .execute();
    const entry = (kind: 'opening' | 'payment' | 'charge', amount: number, bankLine?: string) => ({
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
      ...(bankLine && { bank_line_id: bankLine }),
    });
    await kysely
      .insertInto('entries')
      .values([
        entry('opening', 1_000),
        entry('payment', -100),
        entry('payment', -200, 'line'),
        entry('charge', 0),
      ])
      .execute();

    await migrateTo('0041-payment-methods');

    const rows = await kysely
      .selectFrom('entries')
      .select(['kind', 'amount', 'payment_method'])
      .orderBy('id')
      .execute();
    expect(rows).toEqual([
      { kind: 'opening', amount: 1_000, payment_method: null },
      { kind: 'payment', amount: -100, payment_method: null },
      { kind: 'payment', amount: -200, payment_method: 'bank_transfer' },
      { kind: 'charge', amount: 0, payment_method: null },
    ]);
  });
});
