import type { Kysely } from 'kysely';

// Frozen once landed. Covering, so the chart reads the last year along this index alone.

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createIndex('entries_owner_day')
    .on('entries')
    .columns(['owner_id', 'occurred_on', 'currency', 'amount'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('entries_owner_day').execute();
}
