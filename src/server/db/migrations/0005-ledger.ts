import { PostgresAdapter, sql, type Kysely } from 'kysely';

// Frozen once landed. Each existing balance becomes an opening entry; its history stays in events.

export async function up(db: Kysely<unknown>): Promise<void> {
  const isPostgres = db.getExecutor().adapter instanceof PostgresAdapter;
  await db.schema
    .createTable('entries')
    .addColumn('id', isPostgres ? 'bigserial' : 'integer', (col) =>
      isPostgres ? col.primaryKey() : col.primaryKey().autoIncrement(),
    )
    .addColumn('owner_id', 'text', (col) =>
      col.notNull().references('users.id').onDelete('cascade'),
    )
    .addColumn('client_id', 'text', (col) =>
      col.notNull().references('clients.id').onDelete('cascade'),
    )
    .addColumn('kind', 'text', (col) => col.notNull())
    .addColumn('amount', 'bigint', (col) => col.notNull())
    // The client's currency when the entry was made: amounts mean nothing without it.
    .addColumn('currency', 'text', (col) => col.notNull())
    .addColumn('occurred_on', 'text', (col) => col.notNull())
    .addColumn('due_on', 'text')
    .addColumn('note', 'text', (col) => col.notNull().defaultTo(''))
    .addColumn('void_of', isPostgres ? 'bigint' : 'integer', (col) =>
      col.references('entries.id').onDelete('cascade'),
    )
    .addColumn('created_by', 'text', (col) => col.references('users.id').onDelete('set null'))
    .addColumn('created_at', 'bigint', (col) => col.notNull())
    .execute();
  await db.schema
    .createIndex('entries_client')
    .on('entries')
    .columns(['client_id', 'occurred_on', 'id'])
    .execute();
  await db.schema.createIndex('entries_owner').on('entries').columns(['owner_id', 'id']).execute();
  // An entry is voided at most once, even by two requests at the same moment.
  await db.schema.createIndex('entries_void_of').on('entries').column('void_of').unique().execute();

  await db.schema.alterTable('events').addColumn('detail', 'text').execute();

  // The stored balance was last set on the day the client was last updated: that is its date.
  const day = isPostgres
    ? sql`to_char(to_timestamp(updated_at / 1000.0) at time zone 'UTC', 'YYYY-MM-DD')`
    : sql`date(updated_at / 1000, 'unixepoch')`;
  await sql`
    insert into entries (owner_id, client_id, kind, amount, currency, occurred_on, note, created_by, created_at)
    select owner_id, id, 'opening', balance, currency, ${day}, '', owner_id, updated_at
    from clients where balance <> 0
    order by created_at, id
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('events').dropColumn('detail').execute();
  await db.schema.dropTable('entries').execute();
}
