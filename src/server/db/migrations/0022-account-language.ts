import type { Kysely } from 'kysely';

// Frozen once landed. On the account, so every device shows it; null follows the browser.

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('user_preferences').addColumn('language', 'text').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('user_preferences').dropColumn('language').execute();
}
