import type { Kysely } from 'kysely';

// Frozen once landed. The language the owner chose for the app, kept with the account so every
// device they sign in on shows it; null (the default) follows each browser's own language.

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('user_preferences').addColumn('language', 'text').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('user_preferences').dropColumn('language').execute();
}
