import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { payerRuleId } from '../../src/server/modules/bank/bank-matching.ts';
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
  /** One of the owner's access tokens. */
  tokenId: string;
  /** Another session of the owner's (not the one the tests send), as the session list shows it. */
  sessionId: string;
  /** An account that is neither the owner nor the other owner, for the administrator's routes. */
  targetUserId: string;
  /** A bank import of the owner's, confirmed. */
  bankBatchId: string;
  /** A client link of the owner's. */
  linkId: string;
}

interface Sample {
  payload?: unknown;
  query?: string;
  /** What `:id` stands for, when it is not the owner's client. */
  id?: string;
}

/** `admin` routes are the instance administrator's (the first account: the owner here). */
type Declaration =
  | { access: 'public'; status: number; sample?: (context: Context) => Sample }
  | {
      access: 'protected' | 'admin';
      sample?: (context: Context) => Sample;
      /** What `:id` stands for; the owner's client unless said. */
      id?: (context: Context) => string;
      /** Managed only from a signed-in session: a bearer token is refused 403. */
      sessionOnly?: true;
    };

const settingsBody = {
  preferences: { disableBalanceOnAdd: false, disableBalanceOnEdit: false },
  rates: [{ currency: 'KRW', usdPerUnit: '0.00075', date: '2024-05-01' }],
};

const bankAccount = { accountLabel: 'Matrix bank', currency: 'USD' };
const bankMapping = { date: 0, description: 1, amount: 2, dateOrder: 'YMD', decimal: '.' };
const bankFile = Buffer.from('Date,Text,Amount\n2024-05-02,MATRIX PAYER,1.00\n').toString('base64');
const bankConfirmBody = (clientId: string) => ({
  ...bankAccount,
  lines: [
    {
      line: 2,
      date: '2024-05-02',
      amount: 100,
      description: 'MATRIX PAYER',
      reference: '',
      balance: null,
      allocations: [{ clientId, amount: 100 }],
    },
  ],
});

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
  'GET /api/openapi.json': { access: 'public', status: 200 },
  'GET /api/docs': { access: 'public', status: 200 },
  'GET /api/docs/:file': { access: 'public', status: 200 },

  // A link nobody was given: refused, whoever asks.
  'POST /api/auth/password-reset': {
    access: 'public',
    status: 400,
    sample: () => ({ payload: { token: 'A'.repeat(43), password: strongPassword } }),
  },

  // No mail server in this test: refused as not set up (503), whoever asks; the answer with one
  // is tested in forgot-password.routes.test.ts.
  'POST /api/auth/forgot-password': {
    access: 'public',
    status: 503,
    sample: () => ({ payload: { email: uniqueEmail('matrix-forgot') } }),
  },

  'GET /api/account/sessions': { access: 'protected', sessionOnly: true },
  // Before the routes that end the owner's other sessions.
  'DELETE /api/account/sessions/:id': {
    access: 'protected',
    sessionOnly: true,
    sample: ({ sessionId }) => ({ id: sessionId }),
  },
  'POST /api/account/sessions/end-others': { access: 'protected', sessionOnly: true },
  // The same password again: the owner's next calls still know it.
  'POST /api/account/password': {
    access: 'protected',
    sessionOnly: true,
    sample: () => ({ payload: { currentPassword: strongPassword, newPassword: strongPassword } }),
  },
  'POST /api/account/email': {
    access: 'protected',
    sessionOnly: true,
    sample: () => ({ payload: { email: uniqueEmail('matrix-moved'), password: strongPassword } }),
  },
  'GET /api/account/client-links': { access: 'protected', sessionOnly: true },
  'POST /api/account/client-links/revoke': {
    access: 'protected',
    sessionOnly: true,
    sample: ({ linkId }) => ({ payload: { ids: [linkId] } }),
  },
  // Checked on its own below: any caller's own call ends that caller's account.
  'DELETE /api/account': {
    access: 'protected',
    sessionOnly: true,
    sample: () => ({ payload: { password: strongPassword } }),
  },

  'GET /api/admin/users': { access: 'admin', sessionOnly: true },
  'POST /api/admin/users/:id/disable': {
    access: 'admin',
    sessionOnly: true,
    sample: ({ targetUserId }) => ({ id: targetUserId }),
  },
  'POST /api/admin/users/:id/enable': {
    access: 'admin',
    sessionOnly: true,
    sample: ({ targetUserId }) => ({ id: targetUserId }),
  },
  'POST /api/admin/users/:id/password-reset': {
    access: 'admin',
    sessionOnly: true,
    sample: ({ targetUserId }) => ({ id: targetUserId }),
  },
  'POST /api/admin/invitations': {
    access: 'admin',
    sessionOnly: true,
    sample: () => ({ payload: { email: uniqueEmail('matrix-invited') } }),
  },

  'GET /api/settings': { access: 'protected' },
  'PUT /api/settings': { access: 'protected', sample: () => ({ payload: settingsBody }) },
  'PUT /api/settings/language': {
    access: 'protected',
    sample: () => ({ payload: { language: 'ko' } }),
  },
  'PUT /api/settings/setup': {
    access: 'protected',
    sample: () => ({ payload: { outcome: 'skipped' } }),
  },
  // Before any route gives the other owner a client: a restore goes only into an empty account.
  'POST /api/restore': {
    access: 'protected',
    sample: () => ({ query: 'dryRun=true', payload: buildExportFile() }),
  },
  'GET /api/events': { access: 'protected' },
  'GET /api/clients': { access: 'protected', sample: () => ({ query: 'sort=balance&limit=10' }) },
  'POST /api/clients': { access: 'protected', sample: () => ({ payload: buildClient() }) },
  'GET /api/ageing': { access: 'protected' },
  'GET /api/overview': { access: 'protected' },
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
  'GET /api/clients/:id/statement': {
    access: 'protected',
    sample: () => ({ query: 'from=2024-01-01&to=2024-12-31' }),
  },
  'GET /api/clients/:id/statement.csv': { access: 'protected' },
  'GET /api/clients/:id/statement.pdf': { access: 'protected' },
  // No mail server in this test: the owner's own call is refused as not set up (503), after the
  // session and the client were accepted.
  'POST /api/clients/:id/statement/send': {
    access: 'protected',
    sample: () => ({ payload: { subject: 'Statement', message: 'Please find it attached.' } }),
  },
  'PUT /api/clients/:id/language': {
    access: 'protected',
    sample: () => ({ payload: { language: 'ko' } }),
  },
  'GET /api/clients/:id/link': { access: 'protected' },
  'POST /api/clients/:id/link': {
    access: 'protected',
    sample: () => ({ payload: { expiresInDays: 30 } }),
  },
  // After the link is made: the owner's own call revokes it.
  'DELETE /api/clients/:id/link': { access: 'protected' },
  'GET /api/reminders/plan': { access: 'protected' },
  'PUT /api/reminders/plan': {
    access: 'protected',
    sample: () => ({
      payload: {
        enabled: false,
        daysBefore: 3,
        onDueDate: true,
        overdueEveryDays: 7,
        overdueMax: 3,
        attachPdf: false,
        timeZone: 'UTC',
      },
    }),
  },
  'GET /api/reminders': { access: 'protected' },
  'GET /api/reminders/due-today': { access: 'protected' },
  'GET /api/reminders/preview': { access: 'protected' },
  'GET /api/clients/:id/reminders': { access: 'protected' },
  'PUT /api/clients/:id/reminders': {
    access: 'protected',
    sample: () => ({ payload: { enabled: true } }),
  },
  // Reminders are off: nothing is due, so the owner's own call is refused (409) after the session
  // and the client were accepted.
  'POST /api/reminders/due-today/:id/sent': {
    access: 'protected',
    sample: ({ entryId }) => ({ payload: { charges: [{ entryId, step: 'due' }] } }),
  },
  'POST /api/bank/preview': {
    access: 'protected',
    sample: () => ({ payload: { ...bankAccount, mapping: bankMapping, file: bankFile } }),
  },
  // The client is in the body: another owner's call is checked on its own below.
  'POST /api/bank/confirm': {
    access: 'protected',
    sample: ({ clientId }) => ({ payload: bankConfirmBody(clientId) }),
  },
  'GET /api/bank/rules': { access: 'protected' },
  // The payer the first confirm learned: before the undo, which forgets what its import taught.
  'DELETE /api/bank/rules/:id': { access: 'protected', id: () => payerRuleId('matrix payer') },
  'POST /api/bank/batches/:id/undo': { access: 'protected', id: ({ bankBatchId }) => bankBatchId },
  'GET /api/bank/layouts': { access: 'protected' },
  // Last of the client's routes: the owner's own call deletes the client.
  'DELETE /api/clients/:id': { access: 'protected' },
  'GET /api/entries/export.csv': { access: 'protected' },
  'GET /api/clients/export.csv': { access: 'protected' },
  'GET /api/export.json': { access: 'protected' },
  'POST /api/clients/import': {
    access: 'protected',
    sample: () => ({ payload: { rows: [buildClient()], dryRun: false, skipDuplicates: false } }),
  },
  'GET /api/tokens': { access: 'protected', sessionOnly: true },
  'POST /api/tokens': {
    access: 'protected',
    sessionOnly: true,
    sample: () => ({ payload: { name: 'matrix', access: 'read' } }),
  },
  // Revokes the owner's token last of all (the matrix's own bearer token is another one).
  'DELETE /api/tokens/:id': {
    access: 'protected',
    sessionOnly: true,
    id: ({ tokenId }) => tokenId,
  },
};

/** The live stream never ends by itself: as a signed-in user it is checked in events.routes.test.ts. */
const streams = new Set(['GET /api/events']);
/** Ends the caller's account: checked with an account of its own. */
const endsTheAccount = new Set(['DELETE /api/account']);
/** A new password or e-mail revokes the caller's tokens: the caller makes a new one to go on with. */
const endsTheTokens = new Set(['POST /api/account/password', 'POST /api/account/email']);
/** Names the owner's data in its body, not its path: checked on its own. */
const clientInBody = new Set(['POST /api/bank/confirm', 'POST /api/account/client-links/revoke']);

const keyOf = (route: { method: string; url: string }) => `${route.method} ${route.url}`;

let testApp: TestApp;
let owner: { cookie: string; email: string; userId: string };
let other: { cookie: string; userId: string };
async function newToken(cookie: string) {
  const response = await testApp.app.inject({
    method: 'POST',
    url: '/api/tokens',
    headers: { cookie },
    payload: { name: 'matrix', access: 'read-write' },
  });
  expect(response.statusCode).toBe(201);
  return response.json<{ token: { id: string }; secret: string }>();
}

/** Secrets of read-write tokens of the owner and of the other owner. */
let ownerBearer: string;
let otherBearer: string;
let context: Context;

beforeAll(async () => {
  testApp = await buildTestApp();
  owner = await joinAs(testApp.app);
  other = await joinAs(testApp.app);
  const target = await joinAs(testApp.app);
  // A second session of the owner's, for the route that ends one session.
  const second = await testApp.app.inject({
    method: 'POST',
    url: '/api/auth/login',
    payload: { email: owner.email, password: strongPassword },
  });
  expect(second.statusCode).toBe(200);
  const sessions = await testApp.app.inject({
    method: 'GET',
    url: '/api/account/sessions',
    headers: { cookie: owner.cookie },
  });
  const secondSession = sessions
    .json<{ sessions: { id: string; current: boolean }[] }>()
    .sessions.find((session) => !session.current);
  if (!secondSession) throw new Error('the owner has no second session');
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
  const bank = await testApp.app.inject({
    method: 'POST',
    url: '/api/bank/confirm',
    headers: { cookie: owner.cookie },
    payload: {
      ...bankConfirmBody(client.id),
      lines: [{ ...bankConfirmBody(client.id).lines[0], line: 3, date: '2024-05-01' }],
    },
  });
  expect(bank.statusCode, bank.body).toBe(200);
  const link = await testApp.app.inject({
    method: 'POST',
    url: `/api/clients/${client.id}/link`,
    headers: { cookie: owner.cookie },
    payload: {},
  });
  expect(link.statusCode, link.body).toBe(201);
  const linkRow = await testApp.app.db.kysely
    .selectFrom('client_links')
    .select('id')
    .where('client_id', '=', client.id)
    .executeTakeFirstOrThrow();
  const revocable = await newToken(owner.cookie);
  ownerBearer = (await newToken(owner.cookie)).secret;
  otherBearer = (await newToken(other.cookie)).secret;
  context = {
    ownerEmail: owner.email,
    clientId: client.id,
    clientVersion: client.version,
    entryId: entry.id,
    tokenId: revocable.token.id,
    sessionId: secondSession.id,
    targetUserId: target.userId,
    bankBatchId: bank.json<{ batchId: string }>().batchId,
    linkId: linkRow.id,
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
  options: { cookie?: string; bearer?: string; id?: string; method?: string } = {},
): Promise<LightMyRequestResponse> {
  const [method = '', pattern = ''] = key.split(' ');
  const declaration = matrix[key];
  const sample = declaration?.sample?.(context) ?? {};
  const ownId =
    declaration && declaration.access !== 'public' && declaration.id
      ? declaration.id(context)
      : context.clientId;
  const url = pattern
    .replace(':entryId', String(context.entryId))
    .replace(':id', options.id ?? sample.id ?? ownId)
    .replace(':file', 'docs.js');
  return testApp.app.inject({
    method: (options.method ?? method) as InjectOptions['method'],
    url: sample.query ? `${url}?${sample.query}` : url,
    headers: {
      ...(options.cookie ? { cookie: options.cookie } : {}),
      ...(options.bearer ? { authorization: `Bearer ${options.bearer}` } : {}),
    },
    ...(sample.payload === undefined ? {} : { payload: sample.payload as object }),
  });
}

const apiRoutes = () =>
  testApp.app.registeredRoutes.filter((route) => route.url.startsWith('/api'));
const declared = (access: Declaration['access']) =>
  Object.entries(matrix)
    .filter(([, declaration]) => declaration.access === access)
    .map(([key]) => key);
const sessionOnly = (key: string) => {
  const declaration = matrix[key];
  return declaration?.access !== 'public' && declaration?.sessionOnly === true;
};
/** The tables as they are, but for when tokens were last used (touched on use, once a minute). */
const snapshotButTokenUse = async () => {
  const snapshot = await snapshotDatabase(testApp.app);
  delete snapshot.access_tokens;
  return snapshot;
};
/** Every route that needs a session, the administrator's included. */
const signedIn = () => [...declared('protected'), ...declared('admin')];

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

  it('agrees with the OpenAPI document on which routes need no credential', async () => {
    const response = await testApp.app.inject({ method: 'GET', url: '/api/openapi.json' });
    const paths = response.json<{ paths: Record<string, Record<string, { security?: [] }>> }>()
      .paths;
    for (const [key, declaration] of Object.entries(matrix)) {
      const [method = '', url = ''] = key.split(' ');
      const operation = paths[url.replace(/:(\w+)/g, '{$1}')]?.[method.toLowerCase()];
      expect(operation, key).toBeDefined();
      // `security: []` says "no credential"; absent, the document's own (token or session) holds.
      expect(operation?.security?.length === 0, key).toBe(declaration.access === 'public');
    }
  });

  it('answers every protected route 401 without a session, HEAD included, changing nothing', async () => {
    const before = await snapshotDatabase(testApp.app);
    const checked: string[] = [];
    for (const key of signedIn()) {
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
    expect(checked).toHaveLength(signedIn().length);
    expect(await snapshotDatabase(testApp.app)).toEqual(before);
  });

  it('answers every protected route 401 for a cookie that is not a live session', async () => {
    const forged = `balance_session=${'A'.repeat(43)}`;
    for (const key of signedIn()) {
      const response = await request(key, { cookie: forged });
      expect(response.statusCode, key).toBe(401);
    }
  });

  it('answers every protected route 401 for a bearer token that is not a live one', async () => {
    const before = await snapshotDatabase(testApp.app);
    for (const bearer of [`bal_${'A'.repeat(43)}`, 'not-a-token']) {
      for (const key of declared('protected')) {
        const response = await request(key, { bearer });
        expect(response.statusCode, key).toBe(401);
        expect(response.json(), key).toEqual({
          error: { code: 'unauthenticated', message: anyText },
        });
      }
    }
    expect(await snapshotDatabase(testApp.app)).toEqual(before);
  });

  it('refuses a bearer token on the routes that manage credentials or the account, changing nothing', async () => {
    const before = await snapshotButTokenUse();
    const managing = [...declared('protected'), ...declared('admin')].filter(sessionOnly);
    // The tokens' 3, the account's 8 and the administrator's 5.
    expect(managing).toHaveLength(16);
    for (const key of managing) {
      const response = await request(key, { bearer: ownerBearer });
      expect(response.statusCode, key).toBe(403);
    }
    expect(await snapshotButTokenUse()).toEqual(before);
  });

  it("answers another owner's token on an id exactly like a missing one, changing nothing", async () => {
    const withId = declared('protected').filter((key) => key.includes(':id') && !sessionOnly(key));
    for (const key of withId) {
      const before = await snapshotButTokenUse();
      const foreign = await request(key, { bearer: otherBearer });
      expect(foreign.statusCode, key).toBe(404);
      expect(await snapshotButTokenUse(), key).toEqual(before);
      const missing = await request(key, { bearer: otherBearer, id: 'AAAAAAAAAAAAAAAAAAAAAA' });
      expect(foreign.json(), key).toEqual(missing.json());
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
      (key) =>
        !key.includes(':id') &&
        !streams.has(key) &&
        !endsTheAccount.has(key) &&
        !clientInBody.has(key),
    );
    // Route by route, each with both credentials: a restore goes only into an empty account.
    for (const key of withoutId) {
      for (const credential of [{ cookie: other.cookie }, { bearer: otherBearer }]) {
        if (credential.bearer && sessionOnly(key)) continue;
        const response = await request(key, credential);
        expect(response.statusCode, key).toBeLessThan(300);
        if (endsTheTokens.has(key)) otherBearer = (await newToken(other.cookie)).secret;
        for (const secret of [
          context.clientId,
          context.tokenId,
          'only.the.owner@example.com',
          'Ownerssecret',
          owner.email,
        ]) {
          expect(response.body, key).not.toContain(secret);
        }
      }
    }
    expect(await ownerRows()).toEqual(before);
  });

  it("answers another owner's client in a confirmed bank line like a missing one, changing nothing", async () => {
    const before = await snapshotButTokenUse();
    for (const credential of [{ cookie: other.cookie }, { bearer: otherBearer }]) {
      const foreign = await request('POST /api/bank/confirm', credential);
      expect(foreign.statusCode).toBe(400);
      expect(foreign.json()).toMatchObject({
        error: { fields: { 'lines.0.allocations': 'Client not found' } },
      });
    }
    expect(await snapshotButTokenUse()).toEqual(before);
  });

  it("answers another owner's link in a revoke like a missing one, changing nothing", async () => {
    const before = await snapshotDatabase(testApp.app);
    const foreign = await request('POST /api/account/client-links/revoke', {
      cookie: other.cookie,
    });
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json()).toEqual({ error: { code: 'not_found', message: anyText } });
    expect(await snapshotDatabase(testApp.app)).toEqual(before);
  });

  it("answers the administrator's routes 403 to anyone else, changing nothing", async () => {
    const before = await snapshotDatabase(testApp.app);
    expect(declared('admin').length).toBeGreaterThanOrEqual(5);
    for (const key of declared('admin')) {
      const response = await request(key, { cookie: other.cookie });
      expect(response.statusCode, key).toBe(403);
      expect(response.json(), key).toEqual({ error: { code: 'forbidden', message: anyText } });
    }
    expect(await snapshotDatabase(testApp.app)).toEqual(before);
  });

  it("deletes only the caller's own account, with every row that was theirs", async () => {
    const leaving = await joinAs(testApp.app);
    const before = await snapshotDatabase(testApp.app);
    const response = await request('DELETE /api/account', { cookie: leaving.cookie });
    expect(response.statusCode).toBe(204);
    const after = await snapshotDatabase(testApp.app);
    const expected = Object.fromEntries(
      Object.entries(before).map(([table, rows]) => [
        table,
        rows.filter((row) => !row.includes(leaving.userId) && !row.includes(leaving.email)),
      ]),
    );
    expect(after).toEqual(expected);
  });

  it('refuses a key a body does not take, on every route with a JSON body, naming it and changing nothing', async () => {
    // Answered 200 and left out, what a misspelt key held would be lost without a word
    // (decision 043). A restore reads an export file, whose versions it knows by their number.
    const withBody = Object.entries(matrix).filter(([key, declaration]) => {
      const payload = declaration.sample?.(context).payload;
      return (
        key !== 'POST /api/restore' &&
        typeof payload === 'object' &&
        payload !== null &&
        !Buffer.isBuffer(payload) &&
        !Array.isArray(payload)
      );
    });
    expect(withBody.length).toBeGreaterThanOrEqual(25);
    const before = await snapshotButTokenUse();
    for (const [key, declaration] of withBody) {
      const sample = declaration.sample!(context);
      const response = await testApp.app.inject({
        method: key.split(' ')[0],
        url: key
          .split(' ')[1]!
          .replace(':entryId', String(context.entryId))
          .replace(
            ':id',
            sample.id ??
              (declaration.access !== 'public' && declaration.id
                ? declaration.id(context)
                : context.clientId),
          ),
        headers: declaration.access === 'public' ? {} : { cookie: owner.cookie },
        payload: { ...(sample.payload as object), balanceDue: 100 },
      });
      expect(response.statusCode, `${key}: ${response.body}`).toBe(400);
      expect(response.json(), key).toMatchObject({
        error: {
          code: 'validation',
          fields: { balanceDue: 'This field is not one this request takes.' },
        },
      });
    }
    expect(await snapshotButTokenUse()).toEqual(before);
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
    const mine = [...declared('protected'), ...declared('admin')].filter(
      (name) => !streams.has(name) && !endsTheAccount.has(name),
    );
    for (const key of mine) {
      // The owner's token reads what the session reads (its writes are checked in
      // tokens.routes.test.ts; here the session's write comes next and must find the data).
      if (key.startsWith('GET ') && !sessionOnly(key)) {
        const viaToken = await request(key, { bearer: ownerBearer });
        expect(viaToken.statusCode, `${key} with a token: ${viaToken.body}`).toBe(200);
      }
      const response = await request(key, { cookie: owner.cookie });
      // The owner has clients, and a restore goes only into an empty account: its refusal comes
      // after the session and the file were accepted (the other owner's 2xx is checked above).
      if (key === 'POST /api/restore') {
        expect(response.json(), key).toMatchObject({ error: { code: 'conflict' } });
        continue;
      }
      if (key === 'POST /api/clients/:id/statement/send') {
        expect(response.json(), key).toMatchObject({ error: { code: 'mail_not_configured' } });
        continue;
      }
      if (key === 'POST /api/reminders/due-today/:id/sent') {
        expect(response.json(), key).toMatchObject({ error: { code: 'conflict' } });
        continue;
      }
      expect(response.statusCode, `${key}: ${response.body}`).toBeLessThan(300);
      if (endsTheTokens.has(key)) {
        ownerBearer = (await newToken(owner.cookie)).secret;
        context.tokenId = (await newToken(owner.cookie)).token.id;
      }
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
