import type { Kysely } from 'kysely';

// Frozen once landed. Without statistics SQLite took the owner's index and read all its entries;
// client, then owner, wins. `if (not) exists`: a stop between a drop and its create is resumed.

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
