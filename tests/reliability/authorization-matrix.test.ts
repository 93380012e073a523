import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Client } from '../../src/shared/schemas/clients.ts';
import { buildTestApp, type TestApp } from '../app.ts';
import { joinAs, strongPassword, uniqueEmail } from '../auth.ts';
import { buildClient, buildExportFile } from '../factories.ts';
import { snapshotDatabase } from './database-snapshot.ts';

// Matchers typed as unknown, so they can sit in expected objects.
const anyText: unknown = expect.any(String);

/** What each route is given in this test: the owner's own data, so protected calls are valid. */
interface Context {
  ownerEmail: string;
  clientId: string;
  clientVersion: number;
  /** The client's opening balance. */
  entryId: number;
}

interface Sample {
  payload?: unknown;
  query?: string;
}

type Declaration =
  | { access: 'public'; status: number; sample?: (context: Context) => Sample }
  | { access: 'protected'; sample?: (context: Context) => Sample };

const settingsBody = {
  preferences: { disableBalanceOnAdd: false, disableBalanceOnEdit: false },
  rates: [{ currency: 'KRW', usdPerUnit: '0.00075', date: '2024-05-01' }],
};

/**
 * Every API route, declared public or protected, with a request that is valid apart from who
 * sends it. A route added to the server but not here, or listed here but gone, fails the test.
 * (HEAD routes are Fastify's mirrors of GET routes and take their GET's declaration.)
 */
const matrix: Record<string, Declaration> = {
  'GET /api/health': { access: 'public', status: 200 },
  'GET /api/auth/session': { access: 'public', status: 200 },
  'POST /api/auth/join': {
    access: 'public',
    status: 201,
    sample: () => ({ payload: { email: uniqueEmail('matrix'), password: strongPassword } }),
  },
  'POST /api/auth/login': {
    access: 'public',
    status: 200,
    sample: ({ ownerEmail }) => ({ payload: { email: ownerEmail, password: strongPassword } }),
  },
  'POST /api/auth/logout': { access: 'public', status: 204 },
  'GET /api/settings/public': { access: 'public', status: 200 },

  'GET /api/settings': { access: 'protected' },
  'PUT /api/settings': { access: 'protected', sample: () => ({ payload: settingsBody }) },
  // Before any route gives the other owner a client: a restore goes only into an empty account.
  'POST /api/restore': {
    access: 'protected',
    sample: () => ({ query: 'dryRun=true', payload: buildExportFile() }),
  },
  'GET /api/events': { access: 'protected' },
  'GET /api/clients': { access: 'protected', sample: () => ({ query: 'sort=balance&limit=10' }) },
  'POST /api/clients': { access: 'protected', sample: () => ({ payload: buildClient() }) },
  'GET /api/ageing': { access: 'protected' },
  'GET /api/clients/:id': { access: 'protected' },
  'GET /api/clients/:id/history': { access: 'protected' },
  'PUT /api/clients/:id': {
    access: 'protected',
    sample: ({ clientVersion }) => ({
      payload: { ...buildClient({ balance: 1 }), version: clientVersion },
    }),
  },
  'PATCH /api/clients/:id/balance': {
    access: 'protected',
    sample: ({ clientVersion }) => ({ payload: { balance: 777, version: clientVersion } }),
  },
  'GET /api/clients/:id/entries': { access: 'protected' },
  'POST /api/clients/:id/entries': {
    access: 'protected',
    sample: () => ({ payload: { kind: 'payment', amount: 100, note: 'matrix' } }),
  },
  'POST /api/clients/:id/entries/:entryId/void': {
    access: 'protected',
    sample: () => ({ payload: { reason: 'matrix' } }),
  },
  // Last of the client's routes: the owner's own call deletes the client.
  'DELETE /api/clients/:id': { access: 'protected' },
  'GET /api/entries/export.csv': { access: 'protected' },
  'GET /api/clients/export.csv': { access: 'protected' },
  'GET /api/export.json': { access: 'protected' },
  'POST /api/clients/import': {
    access: 'protected',
    sample: () => ({ payload: { rows: [buildClient()], dryRun: false, skipDuplicates: false } }),
  },
};

/** The live stream never ends by itself: as a signed-in user it is checked in events.routes.test.ts. */
const streams = new Set(['GET /api/events']);

const keyOf = (route: { method: string; url: string }) => `${route.method} ${route.url}`;

let testApp: TestApp;
let owner: { cookie: string; email: string; userId: string };
let other: { cookie: string; userId: string };
let context: Context;

beforeAll(async () => {
  testApp = await buildTestApp();
  owner = await joinAs(testApp.app);
  other = await joinAs(testApp.app);
  const added = await testApp.app.inject({
    method: 'POST',
    url: '/api/clients',
    headers: { cookie: owner.cookie },
    payload: buildClient({ email: 'only.the.owner@example.com', lastName: 'Ownerssecret' }),
  });
  expect(added.statusCode).toBe(201);
  const client = added.json<Client>();
  const entry = await testApp.app.db.kysely
    .selectFrom('entries')
    .select('id')
    .where('client_id', '=', client.id)
    .executeTakeFirstOrThrow();
  context = {
    ownerEmail: owner.email,
    clientId: client.id,
    clientVersion: client.version,
    entryId: entry.id,
  };
  // The owner also has settings and rates, so a write by anyone else would show.
  const settings = await testApp.app.inject({
    method: 'PUT',
    url: '/api/settings',
    headers: { cookie: owner.cookie },
    payload: {
      preferences: { disableBalanceOnAdd: true, disableBalanceOnEdit: true },
      rates: [{ currency: 'CAD', usdPerUnit: '0.73', date: '2024-06-01' }],
    },
  });
  expect(settings.statusCode).toBe(200);
});

afterAll(async () => {
  await testApp.close();
});

function request(
  key: string,
  options: { cookie?: string; id?: string; method?: string } = {},
): Promise<LightMyRequestResponse> {
  const [method = '', pattern = ''] = key.split(' ');
  const declaration = matrix[key];
  const sample = declaration?.sample?.(context) ?? {};
  const url = pattern
    .replace(':entryId', String(context.entryId))
    .replace(':id', options.id ?? context.clientId);
  return testApp.app.inject({
    method: (options.method ?? method) as InjectOptions['method'],
    url: sample.query ? `${url}?${sample.query}` : url,
    headers: options.cookie ? { cookie: options.cookie } : {},
    ...(sample.payload === undefined ? {} : { payload: sample.payload as object }),
  });
}

const apiRoutes = () => testApp.app.routeTable.filter((route) => route.url.startsWith('/api'));
const declared = (access: Declaration['access']) =>
  Object.entries(matrix)
    .filter(([, declaration]) => declaration.access === access)
    .map(([key]) => key);

describe('the authorization matrix', () => {
  it('declares every registered /api route, and no route that does not exist', () => {
    const registered = apiRoutes();
    const keys = new Set(registered.filter((route) => route.method !== 'HEAD').map(keyOf));
    expect(keys.size).toBeGreaterThan(10);
    expect({
      undeclared: [...keys].filter((key) => !(key in matrix)),
      notRegistered: Object.keys(matrix).filter((key) => !keys.has(key)),
    }).toEqual({ undeclared: [], notRegistered: [] });
    const headsWithoutGet = registered
      .filter((route) => route.method === 'HEAD' && !keys.has(`GET ${route.url}`))
      .map(keyOf);
    expect(headsWithoutGet).toEqual([]);
  });

  it('answers every protected route 401 without a session, HEAD included, changing nothing', async () => {
    const before = await snapshotDatabase(testApp.app);
    const checked: string[] = [];
    for (const key of declared('protected')) {
      const response = await request(key);
      expect(response.statusCode, key).toBe(401);
      expect(response.json(), key).toEqual({
        error: { code: 'unauthenticated', message: anyText },
      });
      checked.push(key);
      if (key.startsWith('GET ')) {
        const head = await request(key, { method: 'HEAD' });
        expect(head.statusCode, `HEAD of ${key}`).toBe(401);
      }
    }
    expect(checked).toHaveLength(declared('protected').length);
    expect(await snapshotDatabase(testApp.app)).toEqual(before);
  });

  it('answers every protected route 401 for a cookie that is not a live session', async () => {
    const forged = `balance_session=${'A'.repeat(43)}`;
    for (const key of declared('protected')) {
      const response = await request(key, { cookie: forged });
      expect(response.statusCode, key).toBe(401);
    }
  });

  it("answers another owner's id exactly like a missing one, and the database is unchanged", async () => {
    const withId = declared('protected').filter((key) => key.includes(':id'));
    expect(withId.length).toBeGreaterThanOrEqual(5);
    for (const key of withId) {
      const before = await snapshotDatabase(testApp.app);
      const foreign = await request(key, { cookie: other.cookie });
      expect(foreign.statusCode, key).toBe(404);
      expect(await snapshotDatabase(testApp.app), key).toEqual(before);
      // Same answer as an id that exists nowhere: nothing tells that the id is someone's.
      const missing = await request(key, { cookie: other.cookie, id: 'AAAAAAAAAAAAAAAAAAAAAA' });
      expect(foreign.json(), key).toEqual(missing.json());
      expect(foreign.json(), key).toEqual({
        error: { code: 'not_found', message: anyText },
      });
    }
  });

  it("shows no other route any of the owner's data to another owner, and leaves it untouched", async () => {
    const ownerRows = async () => {
      const snapshot = await snapshotDatabase(testApp.app);
      // Rows of the owner: theirs by id, or holding their id (clients, events, sessions, rates).
      return Object.fromEntries(
        Object.entries(snapshot).map(([table, rows]) => [
          table,
          rows.filter((row) => row.includes(owner.userId)),
        ]),
      );
    };
    const before = await ownerRows();
    expect(before.clients).toHaveLength(1);
    expect(before.exchange_rates).toHaveLength(1);
    const withoutId = declared('protected').filter(
      (key) => !key.includes(':id') && !streams.has(key),
    );
    for (const key of withoutId) {
      const response = await request(key, { cookie: other.cookie });
      expect(response.statusCode, key).toBeLessThan(300);
      for (const secret of [
        context.clientId,
        'only.the.owner@example.com',
        'Ownerssecret',
        owner.email,
      ]) {
        expect(response.body, key).not.toContain(secret);
      }
    }
    expect(await ownerRows()).toEqual(before);
  });

  it('lets the public routes answer without a session', async () => {
    for (const [key, declaration] of Object.entries(matrix)) {
      if (declaration.access !== 'public') continue;
      const response = await request(key);
      expect(response.statusCode, `${key}: ${response.body}`).toBe(declaration.status);
    }
  });

  it('still knows the owner: their own calls succeed with the same samples', async () => {
    // Proves the samples are valid, so the 401s and 404s above come from who asked, not how.
    for (const key of declared('protected').filter((name) => !streams.has(name))) {
      const response = await request(key, { cookie: owner.cookie });
      // The owner has clients, and a restore goes only into an empty account: its refusal comes
      // after the session and the file were accepted (the other owner's 2xx is checked above).
      if (key === 'POST /api/restore') {
        expect(response.json(), key).toMatchObject({ error: { code: 'conflict' } });
        continue;
      }
      expect(response.statusCode, `${key}: ${response.body}`).toBeLessThan(300);
      if (key === 'DELETE /api/clients/:id' || key.startsWith('P')) {
        const current = await testApp.app.inject({
          method: 'GET',
          url: `/api/clients/${context.clientId}`,
          headers: { cookie: owner.cookie },
        });
        if (current.statusCode === 200) context.clientVersion = current.json<Client>().version;
      }
    }
  });
});

// The SSE route hijacks the reply; signed out it must still answer a plain 401 over real HTTP.
describe('the live stream signed out, over real HTTP', () => {
  it('answers 401 with a JSON error, and no stream', async () => {
    const address = await testApp.app.listen({ port: 0, host: '127.0.0.1' });
    const response = await fetch(`${address}/api/events`, {
      signal: AbortSignal.timeout(5000),
    });
    expect(response.status).toBe(401);
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    expect(await response.json()).toMatchObject({ error: { code: 'unauthenticated' } });
  });
});
