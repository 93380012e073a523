import { sql, type Kysely } from 'kysely';

// Frozen once landed. The currency the owner mostly works in (new clients start in it), and
// whether the first-run setup was done or skipped: null while it has not been, on any device.
// Owners who have clients already count as done.

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('user_preferences')
    .addColumn('main_currency', 'text', (col) => col.notNull().defaultTo('USD'))
    .execute();
  await db.schema.alterTable('user_preferences').addColumn('setup_outcome', 'text').execute();
  // An owner who already keeps clients has set up the business in all but name.
  await sql`
    update user_preferences set setup_outcome = 'done'
    where user_id in (select owner_id from clients)
  `.execute(db);
  await sql`
    insert into user_preferences (user_id, disable_balance_on_add, disable_balance_on_edit, updated_at, setup_outcome)
    select distinct owner_id, 0, 0, cast(${Date.now()} as bigint), 'done' from clients
    where owner_id not in (select user_id from user_preferences)
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('user_preferences').dropColumn('setup_outcome').execute();
  await db.schema.alterTable('user_preferences').dropColumn('main_currency').execute();
}
