import type { Kysely } from 'kysely';

// Frozen once landed. The column mapping the owner chose for a bank's CSV layout, under the key
// of its header row (src/shared/bank-layout.ts), so the next statement of that bank is read the
// same way without asking again.

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('bank_layouts')
    .addColumn('owner_id', 'text', (col) =>
      col.notNull().references('users.id').onDelete('cascade'),
    )
    .addColumn('layout_key', 'text', (col) => col.notNull())
    .addColumn('mapping', 'text', (col) => col.notNull())
    .addColumn('updated_at', 'bigint', (col) => col.notNull())
    .addPrimaryKeyConstraint('bank_layouts_pk', ['owner_id', 'layout_key'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('bank_layouts').execute();
}
