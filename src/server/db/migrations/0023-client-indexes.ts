import type { Kysely } from 'kysely';

// Frozen once landed. A client's entries and events are read with both the client and its owner
// in the condition. With the client's index on the client alone, SQLite (which keeps no
// statistics here) took the owner's index instead, and read every entry or event of the owner
// to find one client's: a payment for one client of an owner with 100,000 entries read them all.
// Each index now starts with both, so it matches more of the condition and is the one taken;
// starting with the client keeps it the index a deleted client's entries are found by.
// SQLite runs each statement of a migration on its own: should the process stop between a drop
// and its create, the next start simply carries on (if exists, if not exists).

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('entries_client').ifExists().execute();
  await db.schema
    .createIndex('entries_client')
    .ifNotExists()
    .on('entries')
    .columns(['client_id', 'owner_id', 'occurred_on', 'id'])
    .execute();
  await db.schema.dropIndex('events_client').ifExists().execute();
  await db.schema
    .createIndex('events_client')
    .ifNotExists()
    .on('events')
    .columns(['client_id', 'owner_id', 'id'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('entries_client').ifExists().execute();
  await db.schema
    .createIndex('entries_client')
    .ifNotExists()
    .on('entries')
    .columns(['client_id', 'occurred_on', 'id'])
    .execute();
  await db.schema.dropIndex('events_client').ifExists().execute();
  await db.schema
    .createIndex('events_client')
    .ifNotExists()
    .on('events')
    .columns(['client_id', 'id'])
    .execute();
}
