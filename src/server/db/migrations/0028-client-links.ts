import type { Kysely } from 'kysely';

// Frozen once landed. A client's private link to their statement: only the SHA-256 of its secret
// is kept. A revoked or replaced link keeps its row (revoked_at), so its page can still say
// whom to ask for a new one. The client's own language (null: the owner's) is for that page and,
// later, the reminders.

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('clients').addColumn('language', 'text').execute();
  await db.schema
    .createTable('client_links')
    .addColumn('id', 'text', (col) => col.primaryKey())
    .addColumn('owner_id', 'text', (col) =>
      col.notNull().references('users.id').onDelete('cascade'),
    )
    .addColumn('client_id', 'text', (col) =>
      col.notNull().references('clients.id').onDelete('cascade'),
    )
    .addColumn('secret_hash', 'text', (col) => col.notNull().unique())
    .addColumn('created_at', 'bigint', (col) => col.notNull())
    .addColumn('expires_at', 'bigint')
    .addColumn('revoked_at', 'bigint')
    .addColumn('last_opened_at', 'bigint')
    .addColumn('opened_recorded_at', 'bigint')
    .execute();
  await db.schema
    .createIndex('client_links_client')
    .on('client_links')
    .columns(['owner_id', 'client_id', 'revoked_at'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('client_links').execute();
  await db.schema.alterTable('clients').dropColumn('language').execute();
}
