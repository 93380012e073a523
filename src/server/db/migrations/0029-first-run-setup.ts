import type { Kysely } from 'kysely';

// Frozen once landed. The currency the owner mostly works in (new clients start in it), and
// whether the first-run setup was done or skipped: null while it has not been, on any device.

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('user_preferences')
    .addColumn('main_currency', 'text', (col) => col.notNull().defaultTo('USD'))
    .execute();
  await db.schema.alterTable('user_preferences').addColumn('setup_outcome', 'text').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('user_preferences').dropColumn('setup_outcome').execute();
  await db.schema.alterTable('user_preferences').dropColumn('main_currency').execute();
}
