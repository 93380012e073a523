import { PostgresAdapter, type Kysely } from 'kysely';

// Frozen once landed. The charges a payment or credit names as the ones it pays (issue 57): each
// row puts part of the payment on one charge of the same client and owner, up to `amount`. A
// payment without rows settles the oldest charges first, as every payment before this did, so
// nothing is filled in for them. A row is never deleted when its payment or charge is voided: the
// allocation leaves out the targets of a voided entry (decision 041).

export async function up(db: Kysely<unknown>): Promise<void> {
  const isPostgres = db.getExecutor().adapter instanceof PostgresAdapter;
  const entryId = isPostgres ? 'bigint' : 'integer';
  await db.schema
    .createTable('payment_targets')
    .addColumn('owner_id', 'text', (col) =>
      col.notNull().references('users.id').onDelete('cascade'),
    )
    .addColumn('client_id', 'text', (col) =>
      col.notNull().references('clients.id').onDelete('cascade'),
    )
    .addColumn('payment_id', entryId, (col) =>
      col.notNull().references('entries.id').onDelete('cascade'),
    )
    .addColumn('charge_id', entryId, (col) =>
      col.notNull().references('entries.id').onDelete('cascade'),
    )
    // Minor units: at most this much of the payment goes to the charge.
    .addColumn('amount', 'bigint', (col) => col.notNull())
    .addPrimaryKeyConstraint('payment_targets_key', ['payment_id', 'charge_id'])
    .execute();
  await db.schema
    .createIndex('payment_targets_client')
    .on('payment_targets')
    .columns(['client_id', 'payment_id'])
    .execute();
  await db.schema
    .createIndex('payment_targets_charge')
    .on('payment_targets')
    .column('charge_id')
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('payment_targets').execute();
}
