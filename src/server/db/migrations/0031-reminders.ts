import { PostgresAdapter, type Kysely } from 'kysely';

// Frozen once landed. No plan row means reminders are off: nothing is sent by surprise.

export async function up(db: Kysely<unknown>): Promise<void> {
  const isPostgres = db.getExecutor().adapter instanceof PostgresAdapter;
  await db.schema
    .createTable('reminder_plans')
    .addColumn('owner_id', 'text', (col) =>
      col.primaryKey().references('users.id').onDelete('cascade'),
    )
    .addColumn('enabled', 'integer', (col) => col.notNull())
    .addColumn('days_before', 'integer')
    .addColumn('on_due', 'integer', (col) => col.notNull())
    .addColumn('overdue_every_days', 'integer')
    .addColumn('overdue_max', 'integer', (col) => col.notNull())
    .addColumn('attach_pdf', 'integer', (col) => col.notNull())
    .addColumn('time_zone', 'text', (col) => col.notNull())
    .addColumn('updated_at', 'bigint', (col) => col.notNull())
    .execute();

  // A row only for a client whose reminders are off: on is the default.
  await db.schema
    .createTable('reminder_client_pauses')
    .addColumn('client_id', 'text', (col) =>
      col.primaryKey().references('clients.id').onDelete('cascade'),
    )
    .addColumn('owner_id', 'text', (col) =>
      col.notNull().references('users.id').onDelete('cascade'),
    )
    .addColumn('paused_at', 'bigint', (col) => col.notNull())
    .execute();

  await db.schema
    .createTable('reminders')
    .addColumn('id', isPostgres ? 'bigserial' : 'integer', (col) =>
      isPostgres ? col.primaryKey() : col.primaryKey().autoIncrement(),
    )
    .addColumn('owner_id', 'text', (col) =>
      col.notNull().references('users.id').onDelete('cascade'),
    )
    .addColumn('client_id', 'text', (col) =>
      col.notNull().references('clients.id').onDelete('cascade'),
    )
    .addColumn('entry_id', 'bigint', (col) =>
      col.notNull().references('entries.id').onDelete('cascade'),
    )
    .addColumn('step', 'text', (col) => col.notNull())
    .addColumn('due_on', 'text', (col) => col.notNull())
    .addColumn('status', 'text', (col) => col.notNull())
    .addColumn('message_id', 'text')
    .addColumn('sent_to', 'text')
    .addColumn('claimed_by', 'text')
    .addColumn('lease_until', 'bigint')
    .addColumn('attempts', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('next_attempt_at', 'bigint')
    .addColumn('last_error', 'text')
    .addColumn('created_at', 'bigint', (col) => col.notNull())
    .addColumn('updated_at', 'bigint', (col) => col.notNull())
    .execute();
  // The one arbiter of "exactly once": a second claim of the same step inserts nothing.
  await db.schema
    .createIndex('reminders_step')
    .on('reminders')
    .columns(['client_id', 'entry_id', 'step'])
    .unique()
    .execute();
  await db.schema
    .createIndex('reminders_owner_status')
    .on('reminders')
    .columns(['owner_id', 'status', 'id'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('reminders').execute();
  await db.schema.dropTable('reminder_client_pauses').execute();
  await db.schema.dropTable('reminder_plans').execute();
}
