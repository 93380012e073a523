import { sql, type Kysely } from 'kysely';
import { describe, expect, it } from 'vitest';
import { testDialect } from '../../../../tests/db.ts';
import { oldDatabases } from '../../../../tests/old-database.ts';
import { listClientsPage } from '../../modules/clients/clients.queries.ts';
import type { Database } from '../database.ts';

const databaseAt = oldDatabases();

type Row = Record<string, unknown>;

/**
 * The tables as the code before this migration wrote them. Untyped: the app's table types now
 * name them as this migration leaves them (book_id, book_settings).
 */
type OldTables = Record<string, Row>;

/** Every table whose rows were an owner's, with the columns that order its rows. */
const ownedTables = [
  { table: 'clients', orderBy: ['id'] },
  { table: 'entries', orderBy: ['id'] },
  { table: 'events', orderBy: ['id'] },
  { table: 'exchange_rates', orderBy: ['owner_id', 'currency'] },
  { table: 'ledger_months', orderBy: ['owner_id', 'currency', 'month'] },
  { table: 'client_sums', orderBy: ['owner_id', 'currency'] },
  { table: 'due_sums', orderBy: ['owner_id', 'currency', 'day'] },
  { table: 'payment_targets', orderBy: ['payment_id', 'charge_id'] },
  { table: 'client_links', orderBy: ['id'] },
  { table: 'reminder_plans', orderBy: ['owner_id'] },
  { table: 'reminder_client_pauses', orderBy: ['client_id'] },
  { table: 'reminders', orderBy: ['id'] },
  { table: 'bank_batches', orderBy: ['id'] },
  { table: 'bank_lines', orderBy: ['owner_id', 'line_id'] },
  { table: 'bank_layouts', orderBy: ['owner_id', 'layout_key'] },
  { table: 'bank_payer_rules', orderBy: ['owner_id', 'payer_key'] },
  { table: 'staged_imports', orderBy: ['id'] },
];

/** Whose a row was, by its name before this migration; book_id after it. */
const renamed = (column: string, from = 'owner_id') => (column === from ? 'book_id' : column);

/** A row as this migration leaves it: the same values, the column that said whose renamed. */
const asBook = (row: Row, from = 'owner_id'): Row =>
  Object.fromEntries(Object.entries(row).map(([column, value]) => [renamed(column, from), value]));

async function rowsOf(db: Kysely<Database>, table: string, orderBy: string[]): Promise<Row[]> {
  const result = await sql<Row>`
    select * from ${sql.table(table)}
    order by ${sql.join(orderBy.map((column) => sql.ref(column)))}
  `.execute(db);
  return result.rows;
}

/** The indexes and triggers there are, by name: the rebuilt tables must get theirs back. */
async function indexesAndTriggers(db: Kysely<Database>): Promise<string[]> {
  const result =
    testDialect === 'sqlite'
      ? await sql<{ name: string }>`
          select name from sqlite_master where type in ('index', 'trigger') order by name
        `.execute(db)
      : await sql<{ name: string }>`
          select indexname as name from pg_indexes where schemaname = current_schema()
          order by indexname
        `.execute(db);
  return result.rows.map((row) => row.name);
}

const person = (id: string, createdAt: number, disabledAt: number | null = null) => ({
  id,
  email: `${id}@example.com`,
  email_key: `${id}@example.com`,
  password_hash: disabledAt === null ? 'x' : '',
  is_admin: 0,
  created_at: createdAt,
  last_seen_at: disabledAt === null ? createdAt + 5 : null,
  disabled_at: disabledAt,
});

const client = (owner: string, id: string, [first, last, key]: [string, string, string]) => ({
  id: `${owner}-${id}`,
  owner_id: owner,
  first_name: first,
  last_name: last,
  name_key: key,
  email: `${id}.${owner}@example.com`,
  phone: '+82 10 1234 5678',
  balance: 700,
  currency: 'USD',
  version: 3,
  created_at: 100,
  updated_at: 200,
  oldest_due_on: '2026-02-01',
});

/**
 * One of each kind of row an owner kept, written as the code before this migration wrote it.
 * Returns the id of the owner's last entry, deleted again: the entries' counter is ahead of
 * their highest id, as after any deletion.
 */
async function keepBook(old: Kysely<OldTables>, owner: string, language: string) {
  // A client made and deleted first: the others' rowids (the search's keys) start past a gap.
  await old
    .insertInto('clients')
    .values(client(owner, 'gone', ['Gone', 'Away', 'gone away']))
    .execute();
  await old.deleteFrom('clients').where('id', '=', `${owner}-gone`).execute();
  await old
    .insertInto('clients')
    .values([
      client(owner, 'ana', ['Ana', 'Núñez', 'ana nunez']),
      client(owner, 'min', ['민준', '김', '김민준 kim']),
    ])
    .execute();
  const ana = `${owner}-ana`;
  const entry = async (kind: string, amount: number, extra: Row = {}) => {
    const row = await old
      .insertInto('entries')
      .values({
        owner_id: owner,
        client_id: ana,
        kind,
        amount,
        currency: 'USD',
        occurred_on: '2026-01-15',
        due_on: kind === 'charge' ? '2026-02-01' : null,
        note: `${kind} of ${owner}`,
        void_of: null,
        created_by: owner,
        created_at: 300,
        open_amount: kind === 'charge' ? 300 : 0,
        reference: kind === 'charge' ? 'INV-7' : '',
        bank_line_id: null,
        payment_method: kind === 'payment' ? 'bank_transfer' : null,
        ...extra,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    return row.id as number;
  };
  await entry('opening', 1_000);
  const charge = await entry('charge', 300);
  const payment = await entry('payment', -600, { bank_line_id: `${owner}-line` });
  const credit = await entry('credit', -50);
  await entry('void', 50, { void_of: credit });
  const last = await entry('adjustment', 1);
  await old.deleteFrom('entries').where('id', '=', last).execute();

  await old
    .insertInto('events')
    .values({
      owner_id: owner,
      client_id: ana,
      action: 'entry_added',
      at: 400,
      version: 3,
      before: null,
      after: JSON.stringify({ balance: 700 }),
      detail: JSON.stringify({ entryId: charge }),
    })
    .execute();
  await old
    .insertInto('exchange_rates')
    .values({ owner_id: owner, currency: 'KRW', usd_per_unit: '0.00072', rate_date: '2026-01-02' })
    .execute();
  await old
    .insertInto('ledger_months')
    .values({ owner_id: owner, currency: 'USD', month: '2026-01', high: 0, low: 700 })
    .execute();
  await old
    .insertInto('client_sums')
    .values({
      owner_id: owner,
      currency: 'USD',
      clients: 2,
      owing: 2,
      owed_high: 0,
      owed_low: 1_400,
      in_credit: 0,
      credit_high: 0,
      credit_low: 0,
    })
    .execute();
  await old
    .insertInto('due_sums')
    .values({
      owner_id: owner,
      currency: 'USD',
      day: '2026-02-01',
      open_high: 0,
      open_low: 300,
      clients: 2,
      balance_high: 0,
      balance_low: 1_400,
    })
    .execute();
  await old
    .insertInto('payment_targets')
    .values({
      owner_id: owner,
      client_id: ana,
      payment_id: payment,
      charge_id: charge,
      amount: 300,
    })
    .execute();
  await old
    .insertInto('client_links')
    .values({
      id: `${owner}-link`,
      owner_id: owner,
      client_id: ana,
      secret_hash: `${owner}-secret`,
      created_at: 500,
      expires_at: 9_000,
      revoked_at: null,
      last_opened_at: 600,
      opened_recorded_at: 600,
      made_by: 'token',
      made_by_id: `${owner}-token`,
      made_by_label: 'Zapier',
      made_by_started_at: null,
    })
    .execute();
  await old
    .insertInto('reminder_plans')
    .values({
      owner_id: owner,
      enabled: 1,
      days_before: 3,
      on_due: 1,
      overdue_every_days: 7,
      overdue_max: 3,
      attach_pdf: 0,
      time_zone: 'Asia/Seoul',
      updated_at: 700,
      next_run_at: 800,
      book_changes: 2,
    })
    .execute();
  await old
    .insertInto('reminder_client_pauses')
    .values({ client_id: `${owner}-min`, owner_id: owner, paused_at: 900 })
    .execute();
  await old
    .insertInto('reminders')
    .values({
      owner_id: owner,
      client_id: ana,
      entry_id: charge,
      step: 'before',
      due_on: '2026-02-01',
      status: 'sent',
      message_id: `<${owner}@example.com>`,
      sent_to: `ana.${owner}@example.com`,
      claimed_by: null,
      lease_until: null,
      attempts: 1,
      next_attempt_at: null,
      last_error: null,
      created_at: 1_000,
      updated_at: 1_100,
    })
    .execute();
  await old
    .insertInto('bank_batches')
    .values({
      id: `${owner}-batch`,
      owner_id: owner,
      account_label: 'Maybank',
      currency: 'USD',
      created_at: 1_200,
      undone_at: null,
    })
    .execute();
  await old
    .insertInto('bank_lines')
    .values({
      owner_id: owner,
      line_id: `${owner}-line`,
      batch_id: `${owner}-batch`,
      created_at: 1_200,
    })
    .execute();
  await old
    .insertInto('bank_layouts')
    .values({
      owner_id: owner,
      layout_key: 'date|amount|payer',
      mapping: JSON.stringify({ date: 0, amount: 1, payer: 2 }),
      updated_at: 1_300,
    })
    .execute();
  await old
    .insertInto('bank_payer_rules')
    .values({
      owner_id: owner,
      payer_key: 'ana nunez',
      client_id: ana,
      updated_at: 1_400,
      batch_id: `${owner}-batch`,
      line: 2,
      learned_from: 'match',
      previous: null,
    })
    .execute();
  await old
    .insertInto('user_preferences')
    .values({
      user_id: owner,
      disable_balance_on_add: 1,
      disable_balance_on_edit: 0,
      updated_at: 1_500,
      business_name: `${owner} & Co`,
      business_address: 'Jalan Ampang 1',
      language,
      business_payment_details: 'Maybank 1234',
      main_currency: 'USD',
      setup_outcome: 'done',
      business_tax_id: 'MY-42',
    })
    .execute();
  await old
    .insertInto('sessions')
    .values({
      token_hash: `${owner}-session`,
      user_id: owner,
      created_at: 1_600,
      last_seen_at: 1_700,
      user_agent: 'Firefox',
    })
    .execute();
  await old
    .insertInto('access_tokens')
    .values({
      id: `${owner}-token`,
      user_id: owner,
      name: 'Zapier',
      token_hash: `${owner}-token-hash`,
      read_only: 1,
      created_at: 1_800,
      last_used_at: null,
      expires_at: null,
    })
    .execute();
  return last;
}

describe('the books migration', () => {
  it('makes each account the owner of a book holding all its rows, as they were', async () => {
    const { database, db, migrateTo } = await databaseAt('0044-staged-imports', {
      isAdmin: true,
    });
    const kysely = db.kysely;
    const old = kysely as unknown as Kysely<OldTables>;
    await old
      .insertInto('users')
      .values([person('second', 1_000), person('staging', 2_000, 2_000)])
      .execute();
    const lastEntries = [await keepBook(old, 'owner', 'ko'), await keepBook(old, 'second', 'ms')];
    // A large import half done (migration 0044): a disabled account listed as staging for the
    // owner, with a client of its own and its kept sums.
    await old
      .insertInto('staged_imports')
      .values({ id: 'staging', owner_id: 'owner', started_at: 2_000 })
      .execute();
    await old
      .insertInto('clients')
      .values(client('staging', 'ana', ['Ana', 'Núñez', 'ana nunez']))
      .execute();
    await old
      .insertInto('entries')
      .values({
        owner_id: 'staging',
        client_id: 'staging-ana',
        kind: 'opening',
        amount: 700,
        currency: 'USD',
        occurred_on: '2026-01-01',
        due_on: null,
        note: '',
        void_of: null,
        created_by: 'owner',
        created_at: 2_100,
      })
      .execute();
    await old
      .insertInto('client_sums')
      .values({
        owner_id: 'staging',
        currency: 'USD',
        clients: 1,
        owing: 1,
        owed_high: 0,
        owed_low: 700,
        in_credit: 0,
        credit_high: 0,
        credit_low: 0,
      })
      .execute();
    const before = new Map<string, Row[]>();
    for (const { table, orderBy } of ownedTables)
      before.set(table, await rowsOf(kysely, table, orderBy));
    const users = await rowsOf(kysely, 'users', ['id']);
    const preferences = await rowsOf(kysely, 'user_preferences', ['user_id']);
    const sessions = await rowsOf(kysely, 'sessions', ['token_hash']);
    const tokens = await rowsOf(kysely, 'access_tokens', ['id']);
    const indexes = await indexesAndTriggers(kysely);
    // Every table has rows of both accounts (the one import staged is the owner's): a table the
    // copy skipped, or a row it mixed up, would show.
    for (const [table, rows] of before) {
      const owners = table === 'staged_imports' ? ['owner'] : ['owner', 'second'];
      expect(
        owners.filter((owner) => !rows.some((row) => row.owner_id === owner)),
        table,
      ).toEqual([]);
    }

    // This migration, not the later ones: their columns are not this one's to keep.
    await migrateTo('0045-books');

    for (const { table, orderBy } of ownedTables) {
      const added = table === 'events' ? { actor_id: null, actor_token_id: null } : {};
      expect(
        await rowsOf(
          kysely,
          table,
          orderBy.map((column) => renamed(column)),
        ),
        table,
      ).toEqual(before.get(table)?.map((row) => ({ ...asBook(row), ...added })));
    }
    expect(await rowsOf(kysely, 'book_settings', ['book_id'])).toEqual(
      preferences.map((row) => asBook(row, 'user_id')),
    );
    // The staging account is gone; the language is now also the person's.
    expect(await rowsOf(kysely, 'users', ['id'])).toEqual(
      users
        .filter((row) => row.id !== 'staging')
        .map((row) => ({ ...row, language: row.id === 'owner' ? 'ko' : 'ms' })),
    );
    expect(await rowsOf(kysely, 'sessions', ['token_hash'])).toEqual(
      sessions.map((row) => ({ ...row, book_id: row.user_id })),
    );
    expect(await rowsOf(kysely, 'access_tokens', ['id'])).toEqual(
      tokens.map((row) => ({ ...row, book_id: row.user_id })),
    );

    // A book for each account, staging included, made when the account was; members only for
    // the accounts people sign in to.
    const books = await kysely.selectFrom('books').selectAll().orderBy('id').execute();
    expect(books.map((book) => [book.id, Number(book.created_at)])).toEqual([
      ['owner', 0],
      ['second', 1_000],
      ['staging', 2_000],
    ]);
    const members = await kysely
      .selectFrom('book_members')
      .selectAll()
      .orderBy('book_id')
      .execute();
    expect(members.map((member) => [member.book_id, member.user_id, member.role])).toEqual([
      ['owner', 'owner', 'owner'],
      ['second', 'second', 'owner'],
    ]);
    expect(await kysely.selectFrom('book_invitations').selectAll().execute()).toEqual([]);
    expect(await kysely.selectFrom('collector_clients').selectAll().execute()).toEqual([]);
    // SQLite names a key's own index after its table, renamed.
    expect(await indexesAndTriggers(kysely)).toEqual(
      expect.arrayContaining(
        indexes.map((name) =>
          name.replace('autoindex_user_preferences', 'autoindex_book_settings'),
        ),
      ),
    );

    if (testDialect === 'sqlite') {
      expect((await sql`select * from pragma_foreign_key_check`.execute(kysely)).rows).toEqual([]);
      // No definition is left pointing at a table renamed away during the rebuild.
      const stale = await sql`
        select name from sqlite_master where name like '%before_books%' or sql like '%before_books%'
      `.execute(kysely);
      expect(stale.rows).toEqual([]);
    }

    // The search finds each book's clients by name: its index still knows each row by its rowid.
    const search = async (bookId: string, text: string) => {
      const page = await listClientsPage(
        kysely,
        { bookId, search: text, dialect: database.config.dialect },
        { sort: 'name', dir: 'asc', limit: 10 },
      );
      return page.clients.map((found) => found.id);
    };
    expect(await search('owner', 'nunez')).toEqual(['owner-ana']);
    expect(await search('second', '김민준')).toEqual(['second-min']);
    expect(await search('staging', 'nunez')).toEqual(['staging-ana']);

    // A new entry takes an id no entry ever had, past the one deleted last.
    const added = await kysely
      .insertInto('entries')
      .values({
        book_id: 'owner',
        client_id: 'owner-ana',
        kind: 'charge',
        amount: 5,
        currency: 'USD',
        occurred_on: '2026-03-01',
        due_on: null,
        note: '',
        void_of: null,
        created_by: 'owner',
        created_at: 3_000,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    expect(Number(added.id)).toBeGreaterThan(Math.max(...lastEntries.map(Number)));

    // A client must be a book's: an id that names no book is refused.
    const { owner_id: _owner, ...stray } = client('nobody', 'ana', ['Ana', 'Núñez', 'ana nunez']);
    await expect(
      kysely
        .insertInto('clients')
        .values({ ...stray, currency: 'USD', book_id: 'nobody' })
        .execute(),
    ).rejects.toThrow();

    // Each table's rows go with their book, and only theirs.
    await kysely.deleteFrom('books').where('id', '=', 'second').execute();
    for (const { table } of ownedTables) {
      if (table === 'staged_imports') continue;
      const left = await sql<{ book_id: string }>`
        select distinct book_id from ${sql.table(table)} order by book_id
      `.execute(kysely);
      expect(
        left.rows.map((row) => row.book_id),
        table,
      ).toEqual(
        table === 'client_sums' || table === 'clients' || table === 'entries'
          ? ['owner', 'staging']
          : ['owner'],
      );
    }
    expect(await kysely.selectFrom('book_settings').select('book_id').execute()).toEqual([
      { book_id: 'owner' },
    ]);
    expect(await kysely.selectFrom('book_members').select('book_id').execute()).toEqual([
      { book_id: 'owner' },
    ]);
    // The person stays signed in, in no book; a token acted in the book and goes with it.
    const sessionsLeft = await kysely
      .selectFrom('sessions')
      .select(['token_hash', 'book_id'])
      .orderBy('token_hash')
      .execute();
    expect(sessionsLeft).toEqual([
      { token_hash: 'owner-session', book_id: 'owner' },
      { token_hash: 'second-session', book_id: null },
    ]);
    expect(await kysely.selectFrom('access_tokens').select('id').execute()).toEqual([
      { id: 'owner-token' },
    ]);
    expect(
      (await kysely.selectFrom('users').select('id').orderBy('id').execute()).map((row) => row.id),
    ).toEqual(['owner', 'second']);
  });

  it('keeps who made an entry the person, not a book', async () => {
    const { db, migrateToLatest } = await databaseAt('0044-staged-imports');
    const kysely = db.kysely;
    await (kysely as unknown as Kysely<OldTables>)
      .insertInto('clients')
      .values(client('owner', 'ana', ['Ana', 'Núñez', 'ana nunez']))
      .execute();

    await migrateToLatest();

    // A bookkeeper of the owner's book: a person with no book of their own.
    await kysely.insertInto('users').values(person('bookkeeper', 3_000)).execute();
    await kysely
      .insertInto('book_members')
      .values({ book_id: 'owner', user_id: 'bookkeeper', role: 'bookkeeper', created_at: 3_000 })
      .execute();
    await kysely
      .insertInto('entries')
      .values({
        book_id: 'owner',
        client_id: 'owner-ana',
        kind: 'charge',
        amount: 5,
        currency: 'USD',
        occurred_on: '2026-03-01',
        due_on: null,
        note: '',
        void_of: null,
        created_by: 'bookkeeper',
        created_at: 3_000,
      })
      .execute();
    // Their account deleted, the entry stays, made by nobody known.
    await kysely.deleteFrom('users').where('id', '=', 'bookkeeper').execute();
    const entries = await kysely.selectFrom('entries').select(['amount', 'created_by']).execute();
    expect(entries.map((row) => [Number(row.amount), row.created_by])).toEqual([[5, null]]);
  });

  it('keeps the counter of a table emptied before it: no id is given twice', async () => {
    const { db, migrateToLatest } = await databaseAt('0044-staged-imports');
    const kysely = db.kysely;
    const old = kysely as unknown as Kysely<OldTables>;
    await old
      .insertInto('clients')
      .values(client('owner', 'ana', ['Ana', 'Núñez', 'ana nunez']))
      .execute();
    const entry = {
      client_id: 'owner-ana',
      kind: 'charge',
      amount: 5,
      currency: 'USD',
      occurred_on: '2026-03-01',
      due_on: null,
      note: '',
      void_of: null,
      created_by: 'owner',
      created_at: 3_000,
    };
    const gone = await old
      .insertInto('entries')
      .values({ ...entry, owner_id: 'owner' })
      .returning('id')
      .executeTakeFirstOrThrow();
    // Gone, but its id may still be named in the history (an event's detail): never to be reused.
    await old.deleteFrom('entries').execute();

    await migrateToLatest();

    const added = await kysely
      .insertInto('entries')
      .values({ ...entry, kind: 'charge', currency: 'USD', book_id: 'owner' })
      .returning('id')
      .executeTakeFirstOrThrow();
    expect(Number(added.id)).toBeGreaterThan(Number(gone.id));
  });
});
