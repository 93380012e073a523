import type { Kysely } from 'kysely';

// Frozen once landed. The dashboard's chart of the total owed at each month end reads only the
// last year of an owner's entries, along this index alone (it holds every column the sums need),
// and works back from today's balances: the years before cost nothing.

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
