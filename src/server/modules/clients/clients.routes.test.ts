import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../../../tests/app.ts';
import { joinAs } from '../../../../tests/auth.ts';
import { keepSumsOfRowsWrittenByHand } from '../../../../tests/kept-sums.ts';
import { buildClient } from '../../../../tests/factories.ts';
import type { Client, ClientList } from '../../../shared/schemas/clients.ts';
import type { HistoryEntry } from '../../../shared/schemas/events.ts';
import { utcDay } from '../../../shared/dates.ts';

let testApp: TestApp;
beforeAll(async () => {
  testApp = await buildTestApp();
});
afterAll(async () => {
  await testApp.close();
});

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
const call = (method: Method, url: string, cookie: string | null, payload?: unknown) =>
  testApp.app.inject({
    method,
    url,
    headers: cookie ? { cookie } : {},
    ...(payload === undefined ? {} : { payload: payload as object }),
  });

async function addClient(
  cookie: string,
  overrides: Parameters<typeof buildClient>[0] = {},
): Promise<Client> {
  const response = await call('POST', '/api/clients', cookie, buildClient(overrides));
  expect(response.statusCode).toBe(201);
  return response.json<Client>();
}

async function historyOf(cookie: string, id: string): Promise<HistoryEntry[]> {
  const response = await call('GET', `/api/clients/${id}/history`, cookie);
  expect(response.statusCode).toBe(200);
  return response.json<{ entries: HistoryEntry[] }>().entries;
}

/** Everything in the client tables, to prove a refused request changed nothing. */
async function snapshotTables() {
  const db = testApp.app.db.kysely;
  return {
    clients: await db.selectFrom('clients').selectAll().orderBy('id').execute(),
    history: await db.selectFrom('events').selectAll().orderBy('id').execute(),
  };
}

describe('adding a client', () => {
  it('stores it with an unguessable id, version 1, and a "created" history entry', async () => {
    const { cookie } = await joinAs(testApp.app);
    const body = buildClient({ balance: 123_450, currency: 'USD' });
    const first = await addClient(cookie, body);
    const second = await addClient(cookie);
    expect(first).toMatchObject({ ...body, version: 1 });
    expect(first.id).toMatch(/^[\w-]{22}$/);
    expect(second.id).not.toBe(first.id);
    expect(await historyOf(cookie, first.id)).toEqual([
      expect.objectContaining({ action: 'created', version: 1, before: null, after: { ...body } }),
    ]);
  });

  it('treats a missing balance as 0', async () => {
    const { cookie } = await joinAs(testApp.app);
    const { balance: _balance, ...withoutBalance } = buildClient();
    const response = await call('POST', '/api/clients', cookie, withoutBalance);
    expect(response.statusCode).toBe(201);
    expect(response.json<Client>().balance).toBe(0);
  });

  it('accepts real e-mail addresses with plus tags, hyphens, underscores and sub-domains', async () => {
    const { cookie } = await joinAs(testApp.app);
    for (const email of [
      'ann+invoices@example.com',
      'first_last@mail.example-site.co.uk',
      "o'brien@example.ie",
    ]) {
      expect((await call('POST', '/api/clients', cookie, buildClient({ email }))).statusCode).toBe(
        201,
      );
    }
  });

  it('takes a name part of one Hangul, Han or Kana character, as Korean, Chinese and Japanese names have', async () => {
    const { cookie } = await joinAs(testApp.app);
    for (const [firstName, lastName] of [
      ['서연', '김'],
      ['민', '이'],
      ['明', '李'],
      ['ミ', '森'],
    ]) {
      const client = await addClient(cookie, { firstName, lastName });
      expect(client).toMatchObject({ firstName, lastName });
    }
  });

  it.each([
    [{ firstName: '' }, 'firstName', 'first name required'],
    [{ firstName: 'Ä' }, 'firstName', 'must be at least 2 characters'],
    [{ lastName: 'Ж' }, 'lastName', 'must be at least 2 characters'],
    [{ firstName: 'A' }, 'firstName', 'must be at least 2 characters'],
    [{ lastName: '  ' }, 'lastName', 'last name required'],
    [{ lastName: 'B' }, 'lastName', 'must be at least 2 characters'],
    // PostgreSQL cannot store NUL: refused as input on both databases rather than failing there.
    [{ lastName: 'Null\u0000Byte' }, 'lastName', 'Remove the control characters.'],
    [{ email: '' }, 'email', 'email required'],
    [{ email: 'ann@example' }, 'email', 'enter valid email'],
    [{ email: 'ann@@example.com' }, 'email', 'enter valid email'],
    [{ phone: '' }, 'phone', 'phone required'],
    [{ phone: '12345' }, 'phone', 'enter valid phone'],
    [{ phone: 'call me maybe!' }, 'phone', 'enter valid phone'],
    [{ currency: 'EUR' }, 'currency', 'Choose a currency.'],
    [{ currency: 'RM' }, 'currency', 'Choose a currency.'],
    [{ balance: 12.5 }, 'balance', 'Send a whole number of minor units.'],
    [{ balance: 10_000_000_000_000 }, 'balance', 'This amount is too large.'],
    [{ balance: '100' }, 'balance', 'Send a whole number of minor units.'],
  ])('refuses %j, naming %s', async (override, field, message) => {
    const { cookie } = await joinAs(testApp.app);
    const before = await snapshotTables();
    const response = await call('POST', '/api/clients', cookie, { ...buildClient(), ...override });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({
      error: { code: 'validation', fields: { [field]: message } },
    });
    expect(await snapshotTables()).toEqual(before);
  });

  it('names every bad field of one body at once', async () => {
    const { cookie } = await joinAs(testApp.app);
    const response = await call('POST', '/api/clients', cookie, { firstName: 'A', email: 'x' });
    expect(Object.keys(response.json<{ error: { fields: object } }>().error.fields).sort()).toEqual(
      ['currency', 'email', 'firstName', 'lastName', 'phone'].sort(),
    );
  });
});

describe('the list', () => {
  it("holds only the owner's clients, in name order, with one exact total per currency", async () => {
    const owner = await joinAs(testApp.app);
    const other = await joinAs(testApp.app);
    await addClient(owner.cookie, {
      firstName: 'Zoe',
      lastName: 'Young',
      balance: 123_450,
      currency: 'USD',
    });
    await addClient(owner.cookie, {
      firstName: 'amy',
      lastName: 'Adams',
      balance: 2_000,
      currency: 'USD',
    });
    await addClient(owner.cookie, {
      firstName: 'Min',
      lastName: 'Kim',
      balance: 3_000_000,
      currency: 'KRW',
    });
    await addClient(owner.cookie, {
      firstName: 'Siti',
      lastName: 'Aziz',
      balance: -5_000,
      currency: 'MYR',
    });
    await addClient(other.cookie, { balance: 999, currency: 'CAD' });

    const list = (await call('GET', '/api/clients', owner.cookie)).json<ClientList>();
    expect(list.clients.map((client) => client.firstName)).toEqual(['amy', 'Min', 'Siti', 'Zoe']);
    // Hand sums: USD 1,234.50 + 20.00 = 1,254.50; KRW 3,000,000; MYR -50.00; no CAD of this owner.
    expect(list.totals).toEqual([
      { currency: 'KRW', total: '3000000' },
      { currency: 'USD', total: '125450' },
      { currency: 'MYR', total: '-5000' },
    ]);
  });

  it('sums exactly beyond the safe integer range', async () => {
    const { cookie, userId } = await joinAs(testApp.app);
    const max = 9_999_999_999_999;
    // Written straight into the table, 200 rows a statement, with the sums the write path keeps.
    const rows = Array.from({ length: 1000 }, (_, i) => ({
      id: `bulk${String(i).padStart(18, '0')}`,
      book_id: userId,
      first_name: 'Big',
      last_name: 'Spender',
      name_key: 'big spender',
      email: 'big@example.com',
      phone: '0123456789',
      balance: max,
      currency: 'USD' as const,
      version: 1,
      created_at: 0,
      updated_at: 0,
    }));
    for (let start = 0; start < rows.length; start += 200)
      await testApp.app.db.kysely
        .insertInto('clients')
        .values(rows.slice(start, start + 200))
        .execute();
    await keepSumsOfRowsWrittenByHand(testApp.app.db.kysely, userId);
    const list = (await call('GET', '/api/clients', cookie)).json<ClientList>();
    expect(list.totals).toEqual([{ currency: 'USD', total: (BigInt(max) * 1000n).toString() }]);
    expect(BigInt(max) * 1000n).toBeGreaterThan(BigInt(Number.MAX_SAFE_INTEGER));
  });
});

describe('editing', () => {
  it('replaces the whole client at the version it was read, and keeps before and after', async () => {
    const { cookie } = await joinAs(testApp.app);
    const client = await addClient(cookie);
    const changes = {
      ...buildClient({ firstName: 'Grace', currency: 'CAD', balance: 500 }),
      version: 1,
    };
    const response = await call('PUT', `/api/clients/${client.id}`, cookie, changes);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({
      firstName: 'Grace',
      currency: 'CAD',
      balance: 500,
      version: 2,
    });
    const [edited] = await historyOf(cookie, client.id);
    expect(edited).toMatchObject({
      action: 'edited',
      version: 2,
      before: { firstName: 'Ada' },
      after: { firstName: 'Grace' },
    });
  });

  it('refuses a stale version with 409 and changes nothing', async () => {
    const { cookie } = await joinAs(testApp.app);
    const client = await addClient(cookie);
    expect(
      (await call('PUT', `/api/clients/${client.id}`, cookie, { ...buildClient(), version: 1 }))
        .statusCode,
    ).toBe(200);
    const before = await snapshotTables();
    const stale = await call('PUT', `/api/clients/${client.id}`, cookie, {
      ...buildClient({ firstName: 'Late' }),
      version: 1,
    });
    expect(stale.statusCode).toBe(409);
    expect(stale.json()).toMatchObject({ error: { code: 'conflict' } });
    expect(await snapshotTables()).toEqual(before);
  });

  it('changes only the balance through the balance route', async () => {
    const { cookie } = await joinAs(testApp.app);
    const client = await addClient(cookie, { balance: 100 });
    // A name sent along is refused, naming it, not quietly dropped (decision 043).
    const sneaky = await call('PATCH', `/api/clients/${client.id}/balance`, cookie, {
      balance: -2_000,
      version: 1,
      firstName: 'Sneaky',
    });
    expect(sneaky.statusCode).toBe(400);
    expect(sneaky.json()).toMatchObject({
      error: { fields: { firstName: 'This field is not one this request takes.' } },
    });
    const response = await call('PATCH', `/api/clients/${client.id}/balance`, cookie, {
      balance: -2_000,
      version: 1,
    });
    expect(response.statusCode).toBe(200);
    const { updatedAt: _updatedAt, ...unchanged } = client;
    // A credit now: nothing is owed, so nothing is overdue.
    expect(response.json()).toMatchObject({
      ...unchanged,
      balance: -2_000,
      version: 2,
      oldestDueDate: null,
    });
    const [entry] = await historyOf(cookie, client.id);
    expect(entry).toMatchObject({
      action: 'balance_changed',
      before: { balance: 100 },
      after: { balance: -2_000 },
    });
  });

  it('lets exactly one of many simultaneous changes at one version through', async () => {
    const { cookie } = await joinAs(testApp.app);
    const client = await addClient(cookie, { balance: 0 });
    const answers = await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        i % 2 === 0
          ? call('PATCH', `/api/clients/${client.id}/balance`, cookie, {
              balance: i + 1,
              version: 1,
            })
          : call('PUT', `/api/clients/${client.id}`, cookie, {
              ...buildClient({ balance: i + 1 }),
              version: 1,
            }),
      ),
    );
    const codes = answers.map((answer) => answer.statusCode).sort();
    expect(codes.filter((code) => code === 200)).toHaveLength(1);
    expect(codes.filter((code) => code === 409)).toHaveLength(11);
    const winner = answers.find((answer) => answer.statusCode === 200)?.json<Client>();
    const current = (await call('GET', `/api/clients/${client.id}`, cookie)).json<Client>();
    expect(current).toEqual(winner);
    const history = await historyOf(cookie, client.id);
    expect(history).toHaveLength(2);
    expect(history[0]?.after?.balance).toBe(current.balance);
  });
});

describe('deleting', () => {
  it('removes the client and records it in the history', async () => {
    const { cookie } = await joinAs(testApp.app);
    const client = await addClient(cookie);
    expect((await call('DELETE', `/api/clients/${client.id}`, cookie)).statusCode).toBe(204);
    expect((await call('GET', `/api/clients/${client.id}`, cookie)).statusCode).toBe(404);
    expect((await call('DELETE', `/api/clients/${client.id}`, cookie)).statusCode).toBe(404);
    const [deleted] = await historyOf(cookie, client.id);
    expect(deleted).toMatchObject({ action: 'deleted', before: { firstName: 'Ada' }, after: null });
  });
});

describe('who may do what', () => {
  it('answers 401 on every client route without a session', async () => {
    const { cookie } = await joinAs(testApp.app);
    const client = await addClient(cookie);
    const before = await snapshotTables();
    const routes: [Method, string, unknown?][] = [
      ['GET', '/api/clients'],
      ['POST', '/api/clients', buildClient()],
      ['GET', `/api/clients/${client.id}`],
      ['GET', `/api/clients/${client.id}/history`],
      ['PUT', `/api/clients/${client.id}`, { ...buildClient(), version: 1 }],
      ['PATCH', `/api/clients/${client.id}/balance`, { balance: 1, version: 1 }],
      ['DELETE', `/api/clients/${client.id}`],
    ];
    for (const [method, url, payload] of routes) {
      const response = await call(method, url, null, payload);
      expect(response.statusCode, `${method} ${url}`).toBe(401);
      expect(response.json()).toMatchObject({ error: { code: 'unauthenticated' } });
    }
    expect(await snapshotTables()).toEqual(before);
  });

  it("answers another owner's id exactly like a missing one, and changes nothing", async () => {
    const owner = await joinAs(testApp.app);
    const intruder = await joinAs(testApp.app);
    const client = await addClient(owner.cookie);
    const missing = 'AAAAAAAAAAAAAAAAAAAAAA';
    const before = await snapshotTables();
    const routes: [Method, (id: string) => string, unknown?][] = [
      ['GET', (id) => `/api/clients/${id}`],
      ['GET', (id) => `/api/clients/${id}/history`],
      ['PUT', (id) => `/api/clients/${id}`, { ...buildClient(), version: 1 }],
      ['PATCH', (id) => `/api/clients/${id}/balance`, { balance: 1, version: 1 }],
      ['DELETE', (id) => `/api/clients/${id}`],
    ];
    for (const [method, url, payload] of routes) {
      const foreign = await call(method, url(client.id), intruder.cookie, payload);
      const absent = await call(method, url(missing), intruder.cookie, payload);
      expect(foreign.statusCode, `${method} ${url(':id')}`).toBe(404);
      expect(foreign.body).toBe(absent.body);
    }
    const list = (await call('GET', '/api/clients', intruder.cookie)).json<ClientList>();
    expect(list).toEqual({
      clients: [],
      count: 0,
      nextCursor: null,
      totals: [],
      converted: null,
      asOf: utcDay(),
    });
    expect(await snapshotTables()).toEqual(before);
  });

  it('answers ids that cannot be ours with 404 too', async () => {
    const { cookie } = await joinAs(testApp.app);
    for (const id of ['1', "1' or '1'='1", 'x'.repeat(90), '%00']) {
      expect((await call('GET', `/api/clients/${encodeURIComponent(id)}`, cookie)).statusCode).toBe(
        404,
      );
    }
  });
});
