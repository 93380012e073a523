import type { Kysely } from 'kysely';

// Frozen once landed. The sweep by age every few minutes need not read the whole table.

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.createIndex('sessions_last_seen').on('sessions').column('last_seen_at').execute();
  await db.schema.createIndex('sessions_created').on('sessions').column('created_at').execute();
  await db.schema
    .createIndex('login_throttle_window')
    .on('login_throttle')
    .column('window_started_at')
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('login_throttle_window').execute();
  await db.schema.dropIndex('sessions_created').execute();
  await db.schema.dropIndex('sessions_last_seen').execute();
}
