import type { Kysely } from 'kysely';

// Frozen once landed. Which credential made a client link, so that after a password change the
// owner can find the links a stolen session may have made (issue 52). Sessions are deleted when
// they end, so the row keeps what describes one: its public id, the device it started on and
// when it signed in. Links made before this migration say nothing (null).

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('client_links')
    // 'session', 'token' or 'reminder'.
    .addColumn('made_by', 'text')
    .execute();
  // The session's public id (never its hash) or the token's id.
  await db.schema.alterTable('client_links').addColumn('made_by_id', 'text').execute();
  // The session's User-Agent, or the token's name.
  await db.schema.alterTable('client_links').addColumn('made_by_label', 'text').execute();
  // When the session signed in, or the token was made.
  await db.schema.alterTable('client_links').addColumn('made_by_started_at', 'bigint').execute();
  await db.schema
    .createIndex('client_links_owner_created')
    .on('client_links')
    .columns(['owner_id', 'created_at'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('client_links_owner_created').execute();
  for (const column of ['made_by_started_at', 'made_by_label', 'made_by_id', 'made_by'])
    await db.schema.alterTable('client_links').dropColumn(column).execute();
}
