import type { Kysely } from 'kysely';

// Frozen once landed. Payments brought in from a bank statement: the line each payment came
// from, kept on the entry; the confirmed batches; the lines recorded, one row each, whose key
// makes a second record of a line impossible (docs/decisions/030-payments-from-the-bank.md);
// and the payers the owner confirmed, to match their next transfer at once.

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('entries').addColumn('bank_line_id', 'text').execute();
  await db.schema
    .createIndex('entries_bank_line')
    .on('entries')
    .columns(['owner_id', 'bank_line_id'])
    .execute();

  await db.schema
    .createTable('bank_batches')
    .addColumn('id', 'text', (col) => col.primaryKey())
    .addColumn('owner_id', 'text', (col) =>
      col.notNull().references('users.id').onDelete('cascade'),
    )
    .addColumn('account_label', 'text', (col) => col.notNull())
    .addColumn('currency', 'text', (col) => col.notNull())
    .addColumn('created_at', 'bigint', (col) => col.notNull())
    .addColumn('undone_at', 'bigint')
    .execute();

  await db.schema
    .createTable('bank_lines')
    .addColumn('owner_id', 'text', (col) =>
      col.notNull().references('users.id').onDelete('cascade'),
    )
    .addColumn('line_id', 'text', (col) => col.notNull())
    .addColumn('batch_id', 'text', (col) =>
      col.notNull().references('bank_batches.id').onDelete('cascade'),
    )
    .addColumn('created_at', 'bigint', (col) => col.notNull())
    .addPrimaryKeyConstraint('bank_lines_pk', ['owner_id', 'line_id'])
    .execute();
  await db.schema.createIndex('bank_lines_batch').on('bank_lines').column('batch_id').execute();

  await db.schema
    .createTable('bank_payer_rules')
    .addColumn('owner_id', 'text', (col) =>
      col.notNull().references('users.id').onDelete('cascade'),
    )
    .addColumn('payer_key', 'text', (col) => col.notNull())
    // Null: the text was confirmed for two different clients, so it names nobody.
    .addColumn('client_id', 'text', (col) => col.references('clients.id').onDelete('cascade'))
    .addColumn('updated_at', 'bigint', (col) => col.notNull())
    .addPrimaryKeyConstraint('bank_payer_rules_pk', ['owner_id', 'payer_key'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('bank_payer_rules').execute();
  await db.schema.dropTable('bank_lines').execute();
  await db.schema.dropTable('bank_batches').execute();
  await db.schema.dropIndex('entries_bank_line').execute();
  await db.schema.alterTable('entries').dropColumn('bank_line_id').execute();
}
