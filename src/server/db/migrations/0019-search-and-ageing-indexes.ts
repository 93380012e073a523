import { sql, type Kysely } from 'kysely';

// Frozen once landed. The trigram index only narrows the rows the LIKE conditions are tried on:
// it may match more, never less. SQLite's FTS5 table has external content, so 'rebuild' remakes it.

async function isPostgres(db: Kysely<unknown>): Promise<boolean> {
  const tables = await db.introspection.getTables();
  return tables.some((table) => table.name === 'clients' && table.schema !== undefined);
}

const searchedText = (row: 'new' | 'old') =>
  sql.raw(`${row}.rowid, ${row}.name_key, ${row}.email, ${row}.phone`);

/** Covering: with a million entries the ageing reads one index, never the rows. */
async function coveringIndexes(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createIndex('entries_ageing')
    .on('entries')
    .columns(['owner_id', 'currency', 'due_on', 'occurred_on', 'open_amount'])
    .where(sql.ref('open_amount'), '>', 0)
    .execute();
  await db.schema.dropIndex('entries_open').execute();
  await db.schema
    .createIndex('clients_owner_overdue')
    .on('clients')
    .columns(['owner_id', 'oldest_due_on', 'currency', 'balance', 'id'])
    .execute();
  await db.schema.dropIndex('clients_owner_oldest_due').execute();
}

export async function up(db: Kysely<unknown>): Promise<void> {
  await coveringIndexes(db);
  if (await isPostgres(db)) {
    await sql`savepoint search_index`.execute(db);
    try {
      await sql`create extension if not exists pg_trgm`.execute(db);
    } catch {
      // No right to create it: searches stay unindexed (docs/performance.md says how to add it).
      await sql`rollback to savepoint search_index`.execute(db);
      return;
    }
    await sql`release savepoint search_index`.execute(db);
    await sql`create index clients_search_name on clients using gin (name_key gin_trgm_ops)`.execute(
      db,
    );
    await sql`create index clients_search_email on clients using gin (lower(email) gin_trgm_ops)`.execute(
      db,
    );
    await sql`create index clients_search_phone on clients using gin (phone gin_trgm_ops)`.execute(
      db,
    );
    return;
  }
  // detail=none: the LIKE conditions check each candidate, so positions are never needed.
  await sql`create virtual table clients_search using fts5(
    name_key, email, phone,
    content='clients', content_rowid='rowid', tokenize='trigram', detail='none'
  )`.execute(db);
  await sql`insert into clients_search (clients_search) values ('rebuild')`.execute(db);
  await sql`create trigger clients_search_insert after insert on clients begin
    insert into clients_search (rowid, name_key, email, phone) values (${searchedText('new')});
  end`.execute(db);
  await sql`create trigger clients_search_delete after delete on clients begin
    insert into clients_search (clients_search, rowid, name_key, email, phone)
      values ('delete', ${searchedText('old')});
  end`.execute(db);
  await sql`create trigger clients_search_update after update of name_key, email, phone on clients begin
    insert into clients_search (clients_search, rowid, name_key, email, phone)
      values ('delete', ${searchedText('old')});
    insert into clients_search (rowid, name_key, email, phone) values (${searchedText('new')});
  end`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createIndex('entries_open')
    .on('entries')
    .columns(['owner_id', 'currency'])
    .where(sql.ref('open_amount'), '>', 0)
    .execute();
  await db.schema.dropIndex('entries_ageing').execute();
  await db.schema
    .createIndex('clients_owner_oldest_due')
    .on('clients')
    .columns(['owner_id', 'oldest_due_on', 'id'])
    .execute();
  await db.schema.dropIndex('clients_owner_overdue').execute();
  if (await isPostgres(db)) {
    await sql`drop index if exists clients_search_name`.execute(db);
    await sql`drop index if exists clients_search_email`.execute(db);
    await sql`drop index if exists clients_search_phone`.execute(db);
    return;
  }
  await sql`drop trigger clients_search_update`.execute(db);
  await sql`drop trigger clients_search_delete`.execute(db);
  await sql`drop trigger clients_search_insert`.execute(db);
  await sql`drop table clients_search`.execute(db);
}
