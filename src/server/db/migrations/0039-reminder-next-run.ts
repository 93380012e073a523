import { sql, type Kysely } from 'kysely';

// Frozen once landed. The reminder sender looks only at the owners whose next step has come
// (docs/decisions/029-reminders-sent-once.md, "Which owners a run reads"): `next_run_at` is when
// the owner's charges must be read again (0: at once, null: not until the book changes), and
// `book_changes` counts the changes of the owner's data, so the sender keeps the time it worked
// out only if no change came while it read. Plans that exist are read at the first run.

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('reminder_plans')
    .addColumn('next_run_at', 'bigint', (col) => col.defaultTo(0))
    .execute();
  await db.schema
    .alterTable('reminder_plans')
    .addColumn('book_changes', 'integer', (col) => col.notNull().defaultTo(0))
    .execute();
  await sql`update reminder_plans set next_run_at = 0`.execute(db);
  await db.schema
    .createIndex('reminder_plans_next_run')
    .on('reminder_plans')
    .columns(['enabled', 'next_run_at'])
    .execute();
  // A run also looks for the e-mails whose lease or retry time has passed, over every owner:
  // the other index on reminders begins with the owner.
  await db.schema
    .createIndex('reminders_waiting')
    .on('reminders')
    .columns(['status', 'lease_until'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('reminders_waiting').execute();
  await db.schema.dropIndex('reminder_plans_next_run').execute();
  await db.schema.alterTable('reminder_plans').dropColumn('book_changes').execute();
  await db.schema.alterTable('reminder_plans').dropColumn('next_run_at').execute();
}
