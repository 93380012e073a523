import type { Kysely } from 'kysely';

// Frozen once landed.

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('user_preferences')
    .addColumn('business_name', 'text', (col) => col.notNull().defaultTo(''))
    .execute();
  await db.schema
    .alterTable('user_preferences')
    .addColumn('business_address', 'text', (col) => col.notNull().defaultTo(''))
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('user_preferences').dropColumn('business_address').execute();
  await db.schema.alterTable('user_preferences').dropColumn('business_name').execute();
}
