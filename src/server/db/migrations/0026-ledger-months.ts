import { sql, type Kysely } from 'kysely';

// Frozen once landed. The dashboard's chart of the total owed at each month end summed a year of
// entries on every request (0.7-3 s for an owner with 1,000,000). The ledger's write path now
// keeps each month's net change per owner and currency here, so the chart reads a dozen rows; the
// index that served the old sum goes. Sums are kept as two halves, of the high and of the low 32
// bits of each amount, as the old sum was taken: neither can overflow.

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('ledger_months')
    .addColumn('owner_id', 'text', (col) =>
      col.notNull().references('users.id').onDelete('cascade'),
    )
    .addColumn('currency', 'text', (col) => col.notNull())
    // YYYY-MM of the entries' day.
    .addColumn('month', 'text', (col) => col.notNull())
    .addColumn('high', 'bigint', (col) => col.notNull())
    .addColumn('low', 'bigint', (col) => col.notNull())
    .addPrimaryKeyConstraint('ledger_months_key', ['owner_id', 'currency', 'month'])
    .execute();
  await sql`
    insert into ledger_months (owner_id, currency, month, high, low)
    select owner_id, currency, substr(occurred_on, 1, 7), sum(amount >> 32), sum(amount & 4294967295)
    from entries
    group by owner_id, currency, substr(occurred_on, 1, 7)
  `.execute(db);
  await db.schema.dropIndex('entries_owner_day').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createIndex('entries_owner_day')
    .on('entries')
    .columns(['owner_id', 'occurred_on', 'currency', 'amount'])
    .execute();
  await db.schema.dropTable('ledger_months').execute();
}
