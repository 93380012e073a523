import type { Kysely } from 'kysely';

// Frozen once landed. A large import is written in slices under a staging account of its own,
// which no owner's read sees, and made the owner's in one short transaction at the end
// (decision 042). Each staging account is listed here, with the owner it is for: so it is kept
// out of the accounts an administrator sees, and one a crash left behind can be found and thrown
// away. Deleting the staging account deletes its rows (every owner_id references users).

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('staged_imports')
    .addColumn('id', 'text', (col) => col.primaryKey().references('users.id').onDelete('cascade'))
    // No reference: the staging outlives its owner's deletion until it is thrown away.
    .addColumn('owner_id', 'text', (col) => col.notNull())
    .addColumn('started_at', 'bigint', (col) => col.notNull())
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('staged_imports').execute();
}
