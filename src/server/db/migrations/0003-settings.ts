import type { Kysely } from 'kysely';

// Frozen once landed. Exchange rates are exact decimal text.

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('user_preferences')
    .addColumn('user_id', 'text', (col) =>
      col.primaryKey().references('users.id').onDelete('cascade'),
    )
    .addColumn('disable_balance_on_add', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('disable_balance_on_edit', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('updated_at', 'bigint', (col) => col.notNull())
    .execute();

  await db.schema
    .createTable('instance_settings')
    .addColumn('key', 'text', (col) => col.primaryKey())
    .addColumn('value', 'text', (col) => col.notNull())
    .addColumn('updated_at', 'bigint', (col) => col.notNull())
    .execute();

  await db.schema
    .createTable('exchange_rates')
    .addColumn('owner_id', 'text', (col) =>
      col.notNull().references('users.id').onDelete('cascade'),
    )
    .addColumn('currency', 'text', (col) => col.notNull())
    .addColumn('usd_per_unit', 'text', (col) => col.notNull())
    .addColumn('rate_date', 'text', (col) => col.notNull())
    .addPrimaryKeyConstraint('exchange_rates_pk', ['owner_id', 'currency'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('exchange_rates').execute();
  await db.schema.dropTable('instance_settings').execute();
  await db.schema.dropTable('user_preferences').execute();
}
