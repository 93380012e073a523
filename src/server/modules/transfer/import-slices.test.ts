// A large import is written in slices under a staging book and made the owner's in one
// change at the end (decision 042): nobody sees half of it, a refusal or a crash part-way leaves
// nothing visible, other owners' writes pass between its slices, and the live feed hears of it
// once. Interleaving is proved by the order of what committed, never by timing.
import { setTimeout as sleep } from 'node:timers/promises';
import type { Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../../../tests/app.ts';
import { joinAs } from '../../../../tests/auth.ts';
import { createTestDatabase, testDialect } from '../../../../tests/db.ts';
import { buildClient } from '../../../../tests/factories.ts';
import { refuseClientInsert } from '../../../../tests/refused-insert.ts';
import { openStream } from '../../../../tests/sse.ts';
import { buildApp } from '../../app.ts';
import { loadConfig } from '../../config.ts';
import type { Database } from '../../db/database.ts';
import type { ClientList, ImportResult } from '../../../shared/schemas/clients.ts';
import { rowsPerSlice } from './import.commands.ts';
import { discardAbandonedStagings } from './import-slices.ts';

let testApp: TestApp;
let baseUrl: string;
/** The database's first account: its administrator. */
let admin: { cookie: string };
beforeAll(async () => {
  testApp = await buildTestApp();
  admin = await joinAs(testApp.app);
  baseUrl = await testApp.app.listen({ port: 0, host: '127.0.0.1' });
});
afterAll(async () => {
  await testApp.close();
});

const post = (url: string, cookie: string, payload: object) =>
  testApp.app.inject({ method: 'POST', url, headers: { cookie }, payload });

const listCount = async (cookie: string) => {
  const response = await testApp.app.inject({
    method: 'GET',
    url: '/api/clients',
    headers: { cookie },
  });
  expect(response.statusCode, response.body).toBe(200);
  const list = response.json<ClientList>();
  // The count and the totals, both read from the sums the write path keeps.
  return `${list.count} ${JSON.stringify(list.totals)}`;
};

/** Rows staged and not yet made anyone's, over every staging account. */
async function stagedRows(db: Kysely<Database>): Promise<number> {
  const row = await db
    .selectFrom('clients')
    .innerJoin('staged_imports', 'staged_imports.id', 'clients.book_id')
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

/** Waits until at least `atLeast` rows are staged; fails if the import ends first. */
async function untilStaged(
  db: Kysely<Database>,
  running: { done: boolean },
  atLeast = 1,
): Promise<void> {
  while ((await stagedRows(db)) < atLeast) {
    if (running.done) throw new Error('the import ended before its slices were seen');
    await sleep(2);
  }
}

function importing(cookie: string, rows: object[], skipDuplicates = true) {
  const running = { done: false };
  const answer = post('/api/clients/import', cookie, { rows, dryRun: false, skipDuplicates });
  void answer.finally(() => {
    running.done = true;
  });
  return { running, answer };
}

/** The staging books left (a staging book is a book with no member), and what is under them. */
async function leftOver(db: Kysely<Database>) {
  const stagings = await db.selectFrom('staged_imports').select('id').execute();
  const books = await db
    .selectFrom('books')
    .leftJoin('book_members', 'book_members.book_id', 'books.id')
    .select('books.id')
    .where('book_members.user_id', 'is', null)
    .execute();
  return { stagings: stagings.length, books: books.length, rows: await stagedRows(db) };
}

const nothingLeft = { stagings: 0, books: 0, rows: 0 };

const rowsOf = (count: number, email = (i: number) => `row${i}.${Math.random()}@example.com`) =>
  Array.from({ length: count }, (_, i) => buildClient({ email: email(i), balance: 100 }));

describe('a large import, written in slices', () => {
  it('is more than one slice in these tests', () => {
    expect(rowsPerSlice * 4).toBeLessThan(2_000);
  });

  it('is seen whole or not at all by a reader, the list and its kept count alike', async () => {
    const owner = await joinAs(testApp.app);
    for (const client of rowsOf(2)) await post('/api/clients', owner.cookie, client);
    const before = await listCount(owner.cookie);
    const { running, answer } = importing(owner.cookie, rowsOf(3_000));
    const seen = new Set<string>();
    let readsWhileStaged = 0;
    while (!running.done) {
      const staged = await stagedRows(testApp.app.db.kysely);
      seen.add(await listCount(owner.cookie));
      if (staged > 0 && (await stagedRows(testApp.app.db.kysely)) > 0) readsWhileStaged++;
    }
    expect((await answer).json<ImportResult>().imported).toBe(3_000);
    const after = await listCount(owner.cookie);
    expect(after.startsWith('3002 ')).toBe(true);
    expect(readsWhileStaged).toBeGreaterThan(0);
    seen.delete(before);
    seen.delete(after);
    expect(seen).toEqual(new Set());
    expect(await leftOver(testApp.app.db.kysely)).toEqual(nothingLeft);
  });

  it('lets another owner’s write commit between its slices', async () => {
    const owner = await joinAs(testApp.app);
    const other = await joinAs(testApp.app);
    const prefix = `between.${Math.random()}.`;
    const { running, answer } = importing(
      owner.cookie,
      rowsOf(3_000, (i) => `${prefix}${i}@example.com`),
    );
    // Some of the file's rows committed, whoever they belong to yet, and the import not over:
    // an import in one transaction never shows this.
    const db = testApp.app.db.kysely;
    const committed = async () => {
      const row = await db
        .selectFrom('clients')
        .select((eb) => eb.fn.countAll<number>().as('count'))
        .where('email', 'like', `${prefix}%`)
        .executeTakeFirstOrThrow();
      return Number(row.count);
    };
    while ((await committed()) < rowsPerSlice) {
      if (running.done) throw new Error('the import ended before any slice of it was committed');
      await sleep(2);
    }
    const created = await post('/api/clients', other.cookie, buildClient());
    expect(created.statusCode, created.body).toBe(201);
    expect((await answer).statusCode).toBe(200);

    // The other owner's change committed before the import's: it did not wait for it.
    const othersEvent = await db
      .selectFrom('events')
      .select('id')
      .where('book_id', '=', other.userId)
      .executeTakeFirstOrThrow();
    const imported = await db
      .selectFrom('events')
      .select((eb) => [eb.fn.min('id').as('first'), eb.fn.countAll<number>().as('count')])
      .where('book_id', '=', owner.userId)
      .where('action', '=', 'imported')
      .executeTakeFirstOrThrow();
    expect(Number(imported.count)).toBe(3_000);
    expect(othersEvent.id).toBeLessThan(Number(imported.first));
  });

  it('is announced to the live feed once, when whole', async () => {
    const owner = await joinAs(testApp.app);
    const stream = await openStream(baseUrl, owner.cookie, undefined, {}, '?summarize=true');
    await stream.waitFor((message) => message.event === 'ready');
    const rows = rowsOf(rowsPerSlice + 150);
    const { running, answer } = importing(owner.cookie, rows);
    await untilStaged(testApp.app.db.kysely, running);
    const heardWhileStaged = stream.messages.filter((message) => message.event !== 'ready');
    expect((await answer).statusCode).toBe(200);
    const changes = await stream.waitFor((message) => message.event === 'changes');
    expect(heardWhileStaged).toEqual([]);
    expect(JSON.parse(changes.data)).toMatchObject({ count: rows.length });
    // Nothing more comes: one more change of the owner's is the next message.
    await post('/api/clients', owner.cookie, buildClient());
    await stream.waitFor((message) => message.event === 'change');
    expect(stream.messages.map((message) => message.event)).toEqual(['ready', 'changes', 'change']);
    stream.close();
  });

  it('refused at its end, because a client of the file was added meanwhile, leaves nothing', async () => {
    const owner = await joinAs(testApp.app);
    for (const client of rowsOf(3)) await post('/api/clients', owner.cookie, client);
    const stream = await openStream(baseUrl, owner.cookie, undefined, {}, '?summarize=true');
    await stream.waitFor((message) => message.event === 'ready');
    const late = `late.${Math.random()}@example.com`;
    const rows = rowsOf(2_000, (i) =>
      i === 1_900 ? late : `dup${i}.${Math.random()}@example.com`,
    );
    const { running, answer } = importing(owner.cookie, rows);
    await untilStaged(testApp.app.db.kysely, running, rowsPerSlice);
    const added = await post('/api/clients', owner.cookie, buildClient({ email: late }));
    expect(added.statusCode, added.body).toBe(201);
    const refused = await answer;
    expect(refused.statusCode, refused.body).toBe(409);
    expect(refused.json()).toMatchObject({ error: { code: 'conflict' } });

    expect((await listCount(owner.cookie)).startsWith('4 ')).toBe(true);
    expect(await leftOver(testApp.app.db.kysely)).toEqual(nothingLeft);
    const actions = await testApp.app.db.kysely
      .selectFrom('events')
      .select('action')
      .where('book_id', '=', owner.userId)
      .execute();
    expect(actions.map(({ action }) => action)).toEqual([
      'created',
      'created',
      'created',
      'created',
    ]);
    await stream.waitFor((message) => message.event === 'change');
    expect(stream.messages.map((message) => message.event)).toEqual(['ready', 'change']);
    stream.close();
  });

  it('refused by the database in a late slice leaves nothing, staged rows and staging book included', async () => {
    const owner = await joinAs(testApp.app);
    const db = testApp.app.db.kysely;
    const email = `refused.${Math.random()}@example.com`;
    const allow = await refuseClientInsert(db, testApp.app.db.dialect, email);
    try {
      const rows = rowsOf(2_000, (i) => (i === 1_800 ? email : `slice${i}.${Math.random()}@x.com`));
      expect((await importing(owner.cookie, rows).answer).statusCode).toBe(500);
    } finally {
      await allow();
    }
    expect(await listCount(owner.cookie)).toBe('0 []');
    expect(await leftOver(db)).toEqual(nothingLeft);
  });

  it('keeps a staging book out of everyone’s reach: nobody is its member, no account is added', async () => {
    const owner = await joinAs(testApp.app);
    const db = testApp.app.db.kysely;
    const listedAccounts = async () => {
      const listed = await testApp.app.inject({
        method: 'GET',
        url: '/api/admin/users',
        headers: { cookie: admin.cookie },
      });
      expect(listed.statusCode, listed.body).toBe(200);
      return listed.json<{ users: { email: string }[] }>().users.map(({ email }) => email);
    };
    const accountsBefore = await listedAccounts();
    expect(accountsBefore).toContain(owner.email);
    const { running, answer } = importing(owner.cookie, rowsOf(2_000));
    await untilStaged(db, running);
    const stagings = await db
      .selectFrom('staged_imports')
      .select('id')
      .where('book_id', '=', owner.userId)
      .execute();
    const members = await db
      .selectFrom('book_members')
      .innerJoin('staged_imports', 'staged_imports.id', 'book_members.book_id')
      .select('book_members.user_id')
      .execute();
    const accountsWhileStaged = await listedAccounts();
    expect(running.done).toBe(false);
    // The staging book is there, and nobody is its member: no session or token acts in it, and
    // it is in nobody's list of books.
    expect(stagings).toHaveLength(1);
    expect(members).toEqual([]);
    // The administrator's list of accounts has no account more than before the import.
    expect(accountsWhileStaged).toEqual(accountsBefore);
    expect((await answer).statusCode).toBe(200);
  });
});

describe.runIf(testDialect === 'sqlite')('a large import cut by a crash (SQLite only)', () => {
  it('leaves nothing visible after the restart, and its staged rows are thrown away', async () => {
    const database = await createTestDatabase('sqlite');
    const config = { ...loadConfig({}), database: database.config, signUpsPerAddressPerHour: 0 };
    const logger = { level: 'fatal', stream: { write: () => {} } };
    const first = await buildApp({ config, logger, onFatal: () => {} });
    let second: Awaited<ReturnType<typeof buildApp>> | null = null;
    try {
      const owner = await joinAs(first);
      await first.inject({
        method: 'POST',
        url: '/api/clients',
        headers: { cookie: owner.cookie },
        payload: buildClient(),
      });
      const running = { done: false };
      const answer = first.inject({
        method: 'POST',
        url: '/api/clients/import',
        headers: { cookie: owner.cookie },
        payload: { rows: rowsOf(3_000), dryRun: false, skipDuplicates: true },
      });
      void answer.finally(() => {
        running.done = true;
      });
      await untilStaged(first.db.kysely, running, rowsPerSlice * 2);
      await first.db.sqlite?.crashWriter();
      expect((await answer).statusCode).toBeGreaterThanOrEqual(500);
      await first.close();

      second = await buildApp({ config, logger });
      const list = await second.inject({
        method: 'GET',
        url: '/api/clients',
        headers: { cookie: owner.cookie },
      });
      expect(list.json<ClientList>().count).toBe(1);
      const staged = await stagedRows(second.db.kysely);
      expect(staged).toBeGreaterThanOrEqual(rowsPerSlice * 2);
      expect(staged).toBeLessThan(3_000);

      // The next import's sweep, here for stagings of any age.
      expect(await discardAbandonedStagings(second, owner.userId, Date.now() + 1)).toBe(1);
      expect(await leftOver(second.db.kysely)).toEqual(nothingLeft);
      const after = await second.inject({
        method: 'GET',
        url: '/api/clients',
        headers: { cookie: owner.cookie },
      });
      expect(after.json<ClientList>().count).toBe(1);
    } finally {
      await second?.close();
      await database.drop();
    }
  });
});
