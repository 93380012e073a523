import { PostgresAdapter, type Kysely } from 'kysely';

// Frozen once landed. Who did what, and closed periods (issue 59, decision 046): the day up to
// which a book is closed (null: none), on the book's own row, which every change already reads
// as it holds the book; an entry that corrects one of a closed period (made in the
// open one, linked to it), and the index the book's activity, filtered by person, is read along.

export async function up(db: Kysely<unknown>): Promise<void> {
  const isPostgres = db.getExecutor().adapter instanceof PostgresAdapter;
  await db.schema.alterTable('books').addColumn('lock_date', 'text').execute();
  await db.schema
    .alterTable('entries')
    .addColumn('corrects', isPostgres ? 'bigint' : 'integer', (col) =>
      col.references('entries.id').onDelete('set null'),
    )
    .execute();
  await db.schema
    .createIndex('events_book_actor')
    .on('events')
    .columns(['book_id', 'actor_id', 'id'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('events_book_actor').execute();
  await db.schema.alterTable('entries').dropColumn('corrects').execute();
  await db.schema.alterTable('books').dropColumn('lock_date').execute();
}
