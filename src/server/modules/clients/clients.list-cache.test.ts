import { gunzipSync } from 'node:zlib';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../../../tests/app.ts';
import { joinAs } from '../../../../tests/auth.ts';
import { injectOk } from '../../../../tests/http.ts';
import { keepSumsOfRowsWrittenByHand } from '../../../../tests/kept-sums.ts';
import { buildClient, buildEventRow } from '../../../../tests/factories.ts';
import type { Client, ClientInput, ClientList } from '../../../shared/schemas/clients.ts';
import { buildApp } from '../../app.ts';
import { loadConfig } from '../../config.ts';

// The list shows every change at once. On PostgreSQL these tests read through one instance and
// write through another on the same database; on SQLite, which one process holds, through the
// same instance.
let testApp: TestApp;
let reader: FastifyInstance;
let writer: FastifyInstance;

beforeAll(async () => {
  testApp = await buildTestApp();
  reader = testApp.app;
  writer =
    testApp.database.config.dialect === 'postgres'
      ? await buildApp({ config: { ...loadConfig({}), database: testApp.database.config } })
      : reader;
});

afterAll(async () => {
  if (writer !== reader) await writer.close();
  await testApp.close();
});

const send = injectOk;

/** Adds a client through the writing instance. */
const add = async (cookie: string, values: Partial<ClientInput> = {}) =>
  (await send(writer, 'POST', '/api/clients', cookie, buildClient(values))).json<Client>();

const list = async (cookie: string, query = '') =>
  (await send(reader, 'GET', `/api/clients${query}`, cookie)).json<ClientList>();

describe('the client list answered again', () => {
  it('shows a change made through another instance at once, with new totals', async () => {
    const { cookie } = await joinAs(reader);
    const ada = await add(cookie, { balance: 100, currency: 'USD' });
    const first = await list(cookie);
    expect(await list(cookie)).toEqual(first);
    expect(first.totals).toEqual([{ currency: 'USD', total: '100' }]);

    await send(writer, 'PATCH', `/api/clients/${ada.id}/balance`, cookie, {
      version: ada.version,
      balance: 250,
    });
    const afterChange = await list(cookie);
    expect(afterChange.clients[0]?.balance).toBe(250);
    expect(afterChange.totals).toEqual([{ currency: 'USD', total: '250' }]);

    await send(writer, 'DELETE', `/api/clients/${ada.id}`, cookie);
    expect(await list(cookie)).toMatchObject({ clients: [], count: 0, totals: [] });
  });

  it('shows a changed row on a later page and keeps the count and totals of the whole list', async () => {
    const { cookie } = await joinAs(reader);
    const made: Client[] = [];
    for (const name of ['Ana', 'Ben', 'Cai', 'Dee']) {
      made.push(await add(cookie, { firstName: name, balance: 10, currency: 'CAD' }));
    }
    const pageOne = await list(cookie, '?limit=2');
    expect(pageOne.nextCursor).not.toBeNull();
    const nextQuery = `?limit=2&cursor=${pageOne.nextCursor ?? ''}`;
    expect((await list(cookie, nextQuery)).clients.map((client) => client.firstName)).toEqual([
      'Cai',
      'Dee',
    ]);

    const dee = made[3] as Client;
    await send(writer, 'PATCH', `/api/clients/${dee.id}/balance`, cookie, {
      version: dee.version,
      balance: 40,
    });
    const pageTwo = await list(cookie, nextQuery);
    expect(pageTwo.clients.find((client) => client.id === dee.id)?.balance).toBe(40);
    expect(pageTwo).toMatchObject({ count: 4, totals: [{ currency: 'CAD', total: '70' }] });
  });

  it('shows new exchange rates at once', async () => {
    const { cookie } = await joinAs(reader);
    await add(cookie, { balance: 1_000, currency: 'CAD' });
    expect((await list(cookie)).converted).toBeNull();
    await send(writer, 'PUT', '/api/settings', cookie, {
      preferences: { disableBalanceOnAdd: false, disableBalanceOnEdit: false },
      rates: [{ currency: 'CAD', usdPerUnit: '0.5', date: '2026-11-20' }],
    });
    expect((await list(cookie)).converted).toEqual({ usdTotal: '500', ratesDate: '2026-11-20' });
  });

  it('never answers one owner with another owner’s list', async () => {
    // The second owner gets a client straight into the table with the sums kept beside it, as
    // a restore writes them, with no event: neither owner has any.
    const first = await joinAs(reader);
    const second = await joinAs(reader);
    expect(await list(first.cookie)).toMatchObject({ clients: [], count: 0 });
    const now = Date.now();
    await testApp.app.db.kysely
      .insertInto('clients')
      .values({
        id: 'SecondOwnersOwnClient1',
        book_id: second.userId,
        first_name: 'Only',
        last_name: 'Mine',
        name_key: 'only mine',
        email: 'only.mine@example.com',
        phone: '+1 555 010 2030',
        balance: 0,
        currency: 'USD',
        version: 1,
        created_at: now,
        updated_at: now,
      })
      .execute();
    await keepSumsOfRowsWrittenByHand(testApp.app.db.kysely, second.userId);
    expect(await list(second.cookie)).toMatchObject({ count: 1, clients: [{ lastName: 'Mine' }] });
    expect(await list(first.cookie)).toMatchObject({ clients: [], count: 0 });
  });
});

describe('the client list compressed', () => {
  it('is gzipped for a browser that accepts it, and shows a change at once like the plain one', async () => {
    const { cookie } = await joinAs(reader);
    const clients = [];
    for (let at = 0; at < 8; at++) clients.push(await add(cookie, { balance: 100 + at }));
    const fetchList = (acceptEncoding: string) =>
      reader.inject({
        method: 'GET',
        url: '/api/clients',
        headers: { cookie, 'accept-encoding': acceptEncoding },
      });
    const read = async (acceptEncoding: string) => {
      const response = await fetchList(acceptEncoding);
      expect(response.statusCode).toBe(200);
      expect(response.headers.vary).toBe('accept-encoding');
      const gzipped = response.headers['content-encoding'] === 'gzip';
      return {
        gzipped,
        body: JSON.parse(
          (gzipped ? gunzipSync(response.rawPayload) : response.rawPayload).toString(),
        ) as ClientList,
      };
    };

    const plain = await read('identity');
    expect(plain.gzipped).toBe(false);
    const compressed = await read('gzip, deflate, br, zstd');
    expect(compressed.gzipped).toBe(true);
    expect(compressed.body).toEqual(plain.body);

    const first = clients[0];
    if (!first) throw new Error('expected a client');
    await send(writer, 'PATCH', `/api/clients/${first.id}/balance`, cookie, {
      version: first.version,
      balance: 999,
    });
    const changed = await read('gzip');
    expect(changed.gzipped).toBe(true);
    expect(changed.body.clients.find((client) => client.id === first.id)?.balance).toBe(999);
    expect(changed.body).toEqual((await read('identity')).body);
  });
});

describe('the list and a change made outside the write path', () => {
  it('shows a client written straight into the tables with its event and sums, as a restore writes them', async () => {
    const { cookie, userId } = await joinAs(reader);
    await add(cookie, { firstName: 'Kept', balance: 5, currency: 'USD' });
    expect(await list(cookie)).toMatchObject({ count: 1 });
    const now = Date.now();
    await testApp.app.db.kysely.transaction().execute(async (trx) => {
      await trx
        .insertInto('clients')
        .values({
          id: 'WrittenStraightIntoIt01',
          book_id: userId,
          first_name: 'Straight',
          last_name: 'In',
          name_key: 'straight in',
          email: 'straight.in@example.com',
          phone: '+1 555 010 2040',
          balance: 7,
          currency: 'USD',
          version: 1,
          created_at: now,
          updated_at: now,
        })
        .execute();
      await trx
        .insertInto('events')
        .values(buildEventRow(userId, 'WrittenStraightIntoIt01', 'restored', { at: now }))
        .execute();
    });
    await keepSumsOfRowsWrittenByHand(testApp.app.db.kysely, userId);
    expect(await list(cookie)).toMatchObject({
      count: 2,
      totals: [{ currency: 'USD', total: '12' }],
    });
  });
});

/** Each command of the write path, made through the writing instance, then the reading one's list. */
const commands: [
  string,
  (cookie: string, client: Client) => Promise<unknown>,
  Partial<ClientList>,
][] = [
  ['add a client', (cookie) => add(cookie, { balance: 5, currency: 'CAD' }), { count: 2 }],
  [
    'edit a client',
    (cookie, client) =>
      send(writer, 'PUT', `/api/clients/${client.id}`, cookie, {
        ...buildClient({ balance: 300, currency: 'CAD' }),
        version: client.version,
      }),
    { totals: [{ currency: 'CAD', total: '300' }] },
  ],
  [
    'set the balance by hand',
    (cookie, client) =>
      send(writer, 'PATCH', `/api/clients/${client.id}/balance`, cookie, {
        balance: 40,
        previousBalance: client.balance,
      }),
    { totals: [{ currency: 'CAD', total: '40' }] },
  ],
  [
    'record a payment',
    (cookie, client) =>
      send(writer, 'POST', `/api/clients/${client.id}/entries`, cookie, {
        kind: 'payment',
        amount: 30,
      }),
    { totals: [{ currency: 'CAD', total: '70' }] },
  ],
  [
    'void an entry',
    async (cookie, client) => {
      const { entry } = (
        await send(writer, 'POST', `/api/clients/${client.id}/entries`, cookie, {
          kind: 'charge',
          amount: 900,
        })
      ).json<{ entry: { entryId: number } }>();
      // Read in between, so the list has shown the charge before it is voided.
      expect((await list(cookie)).totals).toEqual([{ currency: 'CAD', total: '1000' }]);
      return send(
        writer,
        'POST',
        `/api/clients/${client.id}/entries/${entry.entryId}/void`,
        cookie,
        {
          reason: 'wrong client',
        },
      );
    },
    { totals: [{ currency: 'CAD', total: '100' }] },
  ],
  [
    'delete a client',
    (cookie, client) => send(writer, 'DELETE', `/api/clients/${client.id}`, cookie),
    { count: 0, totals: [] },
  ],
  [
    'import clients',
    (cookie) =>
      send(writer, 'POST', '/api/clients/import', cookie, {
        rows: [buildClient({ balance: 11, currency: 'CAD' })],
        dryRun: false,
        skipDuplicates: false,
      }),
    { count: 2, totals: [{ currency: 'CAD', total: '111' }] },
  ],
  [
    'save settings',
    (cookie) =>
      send(writer, 'PUT', '/api/settings', cookie, {
        preferences: { disableBalanceOnAdd: false, disableBalanceOnEdit: false },
        rates: [{ currency: 'CAD', usdPerUnit: '0.5', date: '2026-11-20' }],
      }),
    { converted: { usdTotal: '50', ratesDate: '2026-11-20' } },
  ],
];

describe('the list after each command', () => {
  it.each(commands)('%s', async (_name, command, expected) => {
    const { cookie } = await joinAs(reader);
    const client = await add(cookie, { balance: 100, currency: 'CAD' });
    const before = await list(cookie);
    expect(await list(cookie)).toEqual(before);
    await command(cookie, client);
    expect(await list(cookie)).toMatchObject(expected);
  });
});
