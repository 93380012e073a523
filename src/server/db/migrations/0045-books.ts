import { PostgresAdapter, sql, type Kysely } from 'kysely';

// Frozen once landed. Data belongs to a book (a business), no longer to a user (issue 58,
// decision 044). Every account becomes the owner of a book whose id is the account's own id, so
// every row's owner_id is already its book's id: the column is renamed book_id and made to
// reference books, and no row is moved or rewritten. Staging accounts (decision 042) become
// staging books, with no member, and their accounts are removed.
//
// The business's settings follow the book (user_preferences becomes book_settings); the language
// is both the person's (users.language: their screens and their own e-mails) and the book's (what
// its clients receive), the same for every account today.
//
// SQLite cannot change a column's reference: each table is rebuilt as its documentation says
// (create the new table, copy, drop the old, rename), with foreign keys off and checked after,
// in one transaction; its indexes and triggers are made again and AUTOINCREMENT counters kept.

/** The tables whose rows are a book's, by the column that said whose. */
const bookTables = [
  'clients',
  'entries',
  'events',
  'exchange_rates',
  'ledger_months',
  'client_sums',
  'due_sums',
  'payment_targets',
  'client_links',
  'reminder_plans',
  'reminder_client_pauses',
  'reminders',
  'bank_batches',
  'bank_lines',
  'bank_layouts',
  'bank_payer_rules',
] as const;

export async function up(db: Kysely<unknown>): Promise<void> {
  const isPostgres = db.getExecutor().adapter instanceof PostgresAdapter;
  // PostgreSQL's migrations already run in a transaction; SQLite's do not.
  if (db.isTransaction) await migrate(db, isPostgres);
  else await db.transaction().execute((trx) => migrate(trx, isPostgres));
}

async function migrate(trx: Kysely<unknown>, isPostgres: boolean): Promise<void> {
  {
    await createBookTables(trx);
    await sql`insert into books (id, created_at) select id, created_at from users`.execute(trx);
    await sql`
      insert into book_members (book_id, user_id, role, created_at)
      select id, id, 'owner', created_at from users
      where id not in (select id from staged_imports)
    `.execute(trx);

    // The business's settings are the book's; the language is also the person's.
    await trx.schema.alterTable('users').addColumn('language', 'text').execute();
    await sql`
      update users set language =
        (select language from user_preferences where user_preferences.user_id = users.id)
    `.execute(trx);
    await sql`alter table user_preferences rename to book_settings`.execute(trx);

    const rebound = [
      ...bookTables.map((table) => ({ table, column: 'owner_id' })),
      { table: 'staged_imports', column: 'owner_id' },
      { table: 'book_settings', column: 'user_id' },
    ];
    if (isPostgres) {
      for (const { table, column } of rebound) await rebindOnPostgres(trx, table, column);
    } else {
      await rebuildOnSqlite(trx, rebound);
    }
    // Made after the rebuild: SQLite would otherwise point it at the table being replaced.
    await createCollectorClients(trx);

    // The book a session and a token act in.
    await trx.schema
      .alterTable('sessions')
      .addColumn('book_id', 'text', (col) => col.references('books.id').onDelete('set null'))
      .execute();
    await trx.schema
      .alterTable('access_tokens')
      .addColumn('book_id', 'text', (col) => col.references('books.id').onDelete('cascade'))
      .execute();
    await sql`update sessions set book_id = user_id`.execute(trx);
    await sql`update access_tokens set book_id = user_id`.execute(trx);
    // Who acted, from now on: the person, and the token if it was one. Not references: the trail
    // outlives a member's removal and an account's deletion.
    await trx.schema.alterTable('events').addColumn('actor_id', 'text').execute();
    await trx.schema.alterTable('events').addColumn('actor_token_id', 'text').execute();

    // Their books keep the staged rows; the accounts that held them are no longer needed.
    await sql`delete from users where id in (select id from staged_imports)`.execute(trx);
  }
}

async function createBookTables(trx: Kysely<unknown>): Promise<void> {
  await trx.schema
    .createTable('books')
    .addColumn('id', 'text', (col) => col.primaryKey())
    .addColumn('created_at', 'bigint', (col) => col.notNull())
    .execute();
  await trx.schema
    .createTable('book_members')
    .addColumn('book_id', 'text', (col) => col.notNull().references('books.id').onDelete('cascade'))
    .addColumn('user_id', 'text', (col) => col.notNull().references('users.id').onDelete('cascade'))
    // owner | bookkeeper | collector | viewer
    .addColumn('role', 'text', (col) => col.notNull())
    .addColumn('created_at', 'bigint', (col) => col.notNull())
    .addPrimaryKeyConstraint('book_members_key', ['book_id', 'user_id'])
    .execute();
  await trx.schema.createIndex('book_members_user').on('book_members').column('user_id').execute();
  await trx.schema
    .createTable('book_invitations')
    .addColumn('id', 'text', (col) => col.primaryKey())
    .addColumn('book_id', 'text', (col) => col.notNull().references('books.id').onDelete('cascade'))
    .addColumn('email', 'text', (col) => col.notNull())
    .addColumn('email_key', 'text', (col) => col.notNull())
    .addColumn('role', 'text', (col) => col.notNull())
    // A collector's clients, as a JSON array of ids.
    .addColumn('client_ids', 'text', (col) => col.notNull().defaultTo('[]'))
    // SHA-256 of the secret in the link: the table alone accepts nothing.
    .addColumn('token_hash', 'text', (col) => col.notNull().unique())
    .addColumn('invited_by', 'text', (col) => col.references('users.id').onDelete('set null'))
    .addColumn('created_at', 'bigint', (col) => col.notNull())
    .addColumn('expires_at', 'bigint', (col) => col.notNull())
    .addColumn('accepted_at', 'bigint')
    .addColumn('accepted_by', 'text', (col) => col.references('users.id').onDelete('set null'))
    .addColumn('revoked_at', 'bigint')
    .execute();
  await trx.schema
    .createIndex('book_invitations_book')
    .on('book_invitations')
    .columns(['book_id', 'created_at'])
    .execute();
}

/** A collector's clients: the only ones they see. */
async function createCollectorClients(trx: Kysely<unknown>): Promise<void> {
  await trx.schema
    .createTable('collector_clients')
    .addColumn('book_id', 'text', (col) => col.notNull())
    .addColumn('user_id', 'text', (col) => col.notNull())
    .addColumn('client_id', 'text', (col) =>
      col.notNull().references('clients.id').onDelete('cascade'),
    )
    .addPrimaryKeyConstraint('collector_clients_key', ['book_id', 'user_id', 'client_id'])
    .addForeignKeyConstraint(
      'collector_clients_member',
      ['book_id', 'user_id'],
      'book_members',
      ['book_id', 'user_id'],
      (constraint) => constraint.onDelete('cascade'),
    )
    .execute();
  await trx.schema
    .createIndex('collector_clients_client')
    .on('collector_clients')
    .column('client_id')
    .execute();
}

/** The column renamed book_id; its reference to users (and the staging list's id's) to books. */
async function rebindOnPostgres(
  trx: Kysely<unknown>,
  table: string,
  column: string,
): Promise<void> {
  const constraints = await sql<{ name: string; columns: string }>`
    select c.conname as name, a.attname as columns from pg_constraint c
    join pg_class t on t.oid = c.conrelid
    join pg_attribute a on a.attrelid = c.conrelid and a.attnum = c.conkey[1]
    where t.relname = ${table} and c.contype = 'f' and c.confrelid = 'users'::regclass
  `.execute(trx);
  await sql`alter table ${sql.table(table)} rename column ${sql.ref(column)} to book_id`.execute(
    trx,
  );
  for (const { name, columns } of constraints.rows) {
    // Only the column that said whose (and a staging book's own id): entries.created_by still
    // names a person.
    if (columns !== column && columns !== 'id') continue;
    const referencing = columns === column ? 'book_id' : columns;
    await sql`alter table ${sql.table(table)} drop constraint ${sql.ref(name)}`.execute(trx);
    await sql`
      alter table ${sql.table(table)} add constraint ${sql.ref(name)}
      foreign key (${sql.ref(referencing)}) references books (id) on delete cascade
    `.execute(trx);
  }
}

interface SqliteTable {
  table: string;
  column: string;
  definition: string;
  /** Its indexes and triggers, made again after the copy. */
  parts: string[];
  columns: string[];
  /** Kept when the key is not the rowid: the clients' search index is keyed by it. */
  keepRowid: boolean;
  sequence: number | undefined;
}

/**
 * SQLite rewrites every reference to a table it renames: all the tables are renamed out of the
 * way first (their references to each other follow), made again under their names from their
 * old definitions, filled parents first, and the old ones dropped children first, so no drop
 * reaches a row of the new tables.
 */
async function rebuildOnSqlite(
  trx: Kysely<unknown>,
  rebound: { table: string; column: string }[],
): Promise<void> {
  const tables: SqliteTable[] = [];
  for (const { table, column } of rebound) {
    const schema = await sql<{ type: string; sql: string }>`
      select type, sql from sqlite_master where tbl_name = ${table} and sql is not null
    `.execute(trx);
    const info = await sql<{ name: string; type: string; pk: number }>`
      select name, type, pk from pragma_table_info(${table})
    `.execute(trx);
    const sequence = await sql<{ seq: number }>`
      select seq from sqlite_sequence where name = ${table}
    `.execute(trx);
    const renamed = (text: string) => text.replaceAll(`"${column}"`, '"book_id"');
    const created = schema.rows.find((row) => row.type === 'table');
    if (!created) throw new Error(`books migration: no table ${table}`);
    const definition = renamed(created.sql).replaceAll(
      /("book_id"|"id")( [a-z ]*?references )"users" \("id"\)/g,
      '$1$2"books" ("id")',
    );
    if (!definition.includes('references "books"')) {
      throw new Error(`books migration: ${table} has no reference to rebind`);
    }
    tables.push({
      table,
      column,
      definition,
      parts: schema.rows.filter((row) => row.type !== 'table').map((row) => renamed(row.sql)),
      columns: info.rows.map((row) => row.name),
      keepRowid: !info.rows.some((row) => row.pk === 1 && row.type.toLowerCase() === 'integer'),
      sequence: sequence.rows[0]?.seq,
    });
  }
  for (const { table } of tables) {
    await sql.raw(`alter table "${table}" rename to "${table}_before_books"`).execute(trx);
  }
  for (const { table, column, definition, columns, keepRowid } of tables) {
    await sql.raw(definition).execute(trx);
    const names = columns.map((name) => `"${name}"`);
    const newNames = columns.map((name) => `"${name === column ? 'book_id' : name}"`);
    const rowid = keepRowid ? ['rowid'] : [];
    await sql
      .raw(
        `insert into "${table}" (${[...rowid, ...newNames].join(', ')}) ` +
          `select ${[...rowid, ...names].join(', ')} from "${table}_before_books"`,
      )
      .execute(trx);
  }
  for (const { table } of tables.toReversed()) {
    await sql.raw(`drop table "${table}_before_books"`).execute(trx);
  }
  for (const { table, parts, sequence } of tables) {
    for (const part of parts) await sql.raw(part).execute(trx);
    if (sequence !== undefined) {
      await sql`update sqlite_sequence set seq = ${sequence} where name = ${table}`.execute(trx);
    }
  }
  const broken = await sql<{ table: string }>`select * from pragma_foreign_key_check`.execute(trx);
  if (broken.rows.length > 0) {
    throw new Error(`books migration: rows without their parent in ${broken.rows[0]?.table}`);
  }
}

export async function down(): Promise<void> {
  throw new Error('The books migration is not undone: a book may have several members by then');
}
