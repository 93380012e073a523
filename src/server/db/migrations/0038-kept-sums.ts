import { sql, type Kysely } from 'kysely';

// Frozen once landed. The client list recomputed the owner's count and totals per currency over
// every client on each request, and the overview summed every unpaid entry for its ageing: both
// grew with the book (decision 035). The write path now keeps them here, in the transaction of
// each change, as it keeps the month figures (0026). Sums are two halves, of the high and of the
// low 32 bits of each amount, as there: neither can overflow.
//
// client_sums: per owner and currency, the clients, those owing and what they owe, those in
// credit and what they are owed (as a positive amount). due_sums: per owner, currency and day,
// the unpaid amounts of entries falling due that day, and the clients whose oldest unpaid day it
// is with their balances: ageing buckets and the overdue filter are then a range of days.

const split = (value: string) => ({
  high: sql.raw(`sum(${value} >> 32)`),
  low: sql.raw(`sum(${value} & 4294967295)`),
});

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('client_sums')
    .addColumn('owner_id', 'text', (col) =>
      col.notNull().references('users.id').onDelete('cascade'),
    )
    .addColumn('currency', 'text', (col) => col.notNull())
    .addColumn('clients', 'bigint', (col) => col.notNull())
    .addColumn('owing', 'bigint', (col) => col.notNull())
    .addColumn('owed_high', 'bigint', (col) => col.notNull())
    .addColumn('owed_low', 'bigint', (col) => col.notNull())
    .addColumn('in_credit', 'bigint', (col) => col.notNull())
    .addColumn('credit_high', 'bigint', (col) => col.notNull())
    .addColumn('credit_low', 'bigint', (col) => col.notNull())
    .addPrimaryKeyConstraint('client_sums_key', ['owner_id', 'currency'])
    .execute();
  await db.schema
    .createTable('due_sums')
    .addColumn('owner_id', 'text', (col) =>
      col.notNull().references('users.id').onDelete('cascade'),
    )
    .addColumn('currency', 'text', (col) => col.notNull())
    // YYYY-MM-DD
    .addColumn('day', 'text', (col) => col.notNull())
    .addColumn('open_high', 'bigint', (col) => col.notNull())
    .addColumn('open_low', 'bigint', (col) => col.notNull())
    .addColumn('clients', 'bigint', (col) => col.notNull())
    .addColumn('balance_high', 'bigint', (col) => col.notNull())
    .addColumn('balance_low', 'bigint', (col) => col.notNull())
    .addPrimaryKeyConstraint('due_sums_key', ['owner_id', 'currency', 'day'])
    .execute();

  const owed = split('case when balance > 0 then balance else 0 end');
  const credit = split('case when balance < 0 then -balance else 0 end');
  await sql`
    insert into client_sums
      (owner_id, currency, clients, owing, owed_high, owed_low, in_credit, credit_high, credit_low)
    select owner_id, currency, count(*), sum(case when balance > 0 then 1 else 0 end),
      ${owed.high}, ${owed.low}, sum(case when balance < 0 then 1 else 0 end),
      ${credit.high}, ${credit.low}
    from clients
    group by owner_id, currency
  `.execute(db);
  const open = split('open_amount');
  await sql`
    insert into due_sums
      (owner_id, currency, day, open_high, open_low, clients, balance_high, balance_low)
    select owner_id, currency, coalesce(due_on, occurred_on), ${open.high}, ${open.low}, 0, 0, 0
    from entries
    where open_amount > 0
    group by owner_id, currency, coalesce(due_on, occurred_on)
  `.execute(db);
  const balance = split('balance');
  await sql`
    insert into due_sums
      (owner_id, currency, day, open_high, open_low, clients, balance_high, balance_low)
    select owner_id, currency, oldest_due_on, 0, 0, count(*), ${balance.high}, ${balance.low}
    from clients
    where oldest_due_on is not null
    group by owner_id, currency, oldest_due_on
    on conflict (owner_id, currency, day) do update set
      clients = excluded.clients,
      balance_high = excluded.balance_high,
      balance_low = excluded.balance_low
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('due_sums').execute();
  await db.schema.dropTable('client_sums').execute();
}
