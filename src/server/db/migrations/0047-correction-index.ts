import { sql, type Kysely } from 'kysely';

// Frozen once landed. The corrections of an entry (issue 59) are looked up for every entry of a
// ledger page and before every void: without an index on `entries.corrects` each lookup read
// every entry of every book. Partial: almost no entry corrects another.

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createIndex('entries_corrects')
    .on('entries')
    .column('corrects')
    .where(sql.ref('corrects'), 'is not', null)
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('entries_corrects').execute();
}
