import type { Kysely } from 'kysely';

// Frozen once landed. The business's tax id (issue 56), printed on its statements: a Korean
// business registration number, a Malaysian TIN or SST number, any text the owner gives.

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('user_preferences')
    .addColumn('business_tax_id', 'text', (col) => col.notNull().defaultTo(''))
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('user_preferences').dropColumn('business_tax_id').execute();
}
