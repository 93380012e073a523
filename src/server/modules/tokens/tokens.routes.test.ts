import { Writable } from 'node:stream';
import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../../../tests/app.ts';
import { createTestDatabase } from '../../../../tests/db.ts';
import { joinAs } from '../../../../tests/auth.ts';
import { buildClient } from '../../../../tests/factories.ts';
import { snapshotDatabase } from '../../../../tests/reliability/database-snapshot.ts';
import { openStream } from '../../../../tests/sse.ts';
import type {
  AccessTokenInput,
  CreatedAccessToken,
} from '../../../shared/schemas/access-tokens.ts';
import type { Client, ClientList } from '../../../shared/schemas/clients.ts';
import { buildApp } from '../../app.ts';
import { loadConfig } from '../../config.ts';
import { hashToken } from '../auth/session.ts';

const requestsPerMinute = 40;
let testApp: TestApp;
let baseUrl: string;
beforeAll(async () => {
  testApp = await buildTestApp({
    config: { tokenRequestsPerMinute: requestsPerMinute, liveHeartbeatMs: 200 },
  });
  baseUrl = await testApp.app.listen({ port: 0, host: '127.0.0.1' });
});
afterAll(async () => {
  await testApp.close();
});

type Owner = Awaited<ReturnType<typeof joinAs>>;

function inject(options: {
  method: InjectOptions['method'];
  url: string;
  cookie?: string;
  token?: string;
  headers?: Record<string, string>;
  payload?: object;
}) {
  return testApp.app.inject({
    method: options.method,
    url: options.url,
    headers: {
      ...options.headers,
      ...(options.cookie ? { cookie: options.cookie } : {}),
      ...(options.token ? { authorization: `Bearer ${options.token}` } : {}),
    },
    ...(options.payload ? { payload: options.payload } : {}),
  });
}

async function createToken(
  owner: Owner,
  input: Partial<AccessTokenInput> = {},
): Promise<CreatedAccessToken> {
  const response = await inject({
    method: 'POST',
    url: '/api/tokens',
    cookie: owner.cookie,
    payload: { name: 'script', access: 'read-write', ...input },
  });
  expect(response.statusCode, response.body).toBe(201);
  return response.json<CreatedAccessToken>();
}

async function addClient(owner: Owner, lastName = 'Tokenson'): Promise<Client> {
  const response = await inject({
    method: 'POST',
    url: '/api/clients',
    cookie: owner.cookie,
    payload: buildClient({ lastName }),
  });
  expect(response.statusCode, response.body).toBe(201);
  return response.json<Client>();
}

describe('personal access tokens', () => {
  it('are shown once, stored only as a hash, and listed without their secret', async () => {
    const owner = await joinAs(testApp.app);
    const created = await createToken(owner, {
      name: '  Accounting sync  ',
      access: 'read',
      expiresAt: '2999-01-31T23:59:59.000Z',
    });
    expect(created.secret).toMatch(/^bal_[\w-]{43}$/);
    expect(created.token).toEqual({
      id: expect.any(String) as unknown,
      name: 'Accounting sync',
      access: 'read',
      createdAt: expect.any(String) as unknown,
      lastUsedAt: null,
      expiresAt: '2999-01-31T23:59:59.000Z',
    });
    const dump = JSON.stringify(await snapshotDatabase(testApp.app));
    expect(dump).not.toContain(created.secret);
    expect(dump).not.toContain(created.secret.slice(4));
    expect(dump).toContain(hashToken(created.secret));

    const list = await inject({ method: 'GET', url: '/api/tokens', cookie: owner.cookie });
    expect(list.json()).toEqual({ tokens: [created.token] });
    expect(list.body).not.toContain(created.secret);
  });

  it('keeps no copy of the secret for an Idempotency-Key retry', async () => {
    const owner = await joinAs(testApp.app);
    const response = await inject({
      method: 'POST',
      url: '/api/tokens',
      cookie: owner.cookie,
      headers: { 'idempotency-key': 'token-creation-1' },
      payload: { name: 'retried', access: 'read' },
    });
    expect(response.statusCode).toBe(201);
    const { secret } = response.json<CreatedAccessToken>();
    expect(JSON.stringify(await snapshotDatabase(testApp.app))).not.toContain(secret);
  });

  it('refuses a bad name, access or expiry, naming the field, and creates nothing', async () => {
    const owner = await joinAs(testApp.app);
    const cases: [object, string][] = [
      [{ name: ' ', access: 'read' }, 'name'],
      [{ name: 'x'.repeat(101), access: 'read' }, 'name'],
      // NUL cannot be stored by PostgreSQL; a direction override can disguise the name.
      [{ name: 'Ab\u0000😀', access: 'read' }, 'name'],
      [{ name: 'deploy\u202Eyek', access: 'read' }, 'name'],
      [{ name: 'x', access: 'admin' }, 'access'],
      [{ name: 'x', access: 'read', expiresAt: 'tomorrow' }, 'expiresAt'],
      [{ name: 'x', access: 'read', expiresAt: '2001-01-01T00:00:00Z' }, 'expiresAt'],
    ];
    for (const [payload, field] of cases) {
      const response = await inject({
        method: 'POST',
        url: '/api/tokens',
        cookie: owner.cookie,
        payload,
      });
      expect(response.statusCode, JSON.stringify(payload)).toBe(400);
      expect(Object.keys(response.json<{ error: { fields: object } }>().error.fields)).toEqual([
        field,
      ]);
    }
    const list = await inject({ method: 'GET', url: '/api/tokens', cookie: owner.cookie });
    expect(list.json()).toEqual({ tokens: [] });
  });

  it('act as their owner on the API: reads, writes, the live stream and who am I', async () => {
    const owner = await joinAs(testApp.app);
    const { secret } = await createToken(owner);
    const session = await inject({ method: 'GET', url: '/api/auth/session', token: secret });
    expect(session.json()).toMatchObject({ user: { id: owner.userId, email: owner.email } });

    // No Origin, no Sec-Fetch-Site, no cookie: a script's request, accepted.
    const added = await inject({
      method: 'POST',
      url: '/api/clients',
      token: secret,
      payload: buildClient({ lastName: 'Viatoken' }),
    });
    expect(added.statusCode, added.body).toBe(201);
    const list = await inject({ method: 'GET', url: '/api/clients', cookie: owner.cookie });
    expect(list.json<ClientList>().clients.map((client) => client.lastName)).toEqual(['Viatoken']);

    const stream = await openStream(baseUrl, '', undefined, { authorization: `Bearer ${secret}` });
    expect(stream.status).toBe(200);
    await stream.waitFor((message) => message.event === 'ready');
    stream.close();
  });

  it("reach nothing of another owner's", async () => {
    const owner = await joinAs(testApp.app);
    const other = await joinAs(testApp.app);
    const client = await addClient(owner, 'Ownerssecret');
    const { secret: otherSecret } = await createToken(other);
    const before = await snapshotDatabase(testApp.app);
    for (const [method, url] of [
      ['GET', `/api/clients/${client.id}`],
      ['GET', `/api/clients/${client.id}/history`],
      ['GET', `/api/clients/${client.id}/entries`],
      ['PATCH', `/api/clients/${client.id}/balance`],
      ['DELETE', `/api/clients/${client.id}`],
    ] as const) {
      const response = await inject({
        method,
        url,
        token: otherSecret,
        ...(method === 'PATCH' ? { payload: { balance: 5, version: client.version } } : {}),
      });
      expect(response.statusCode, `${method} ${url}`).toBe(404);
    }
    const list = await inject({ method: 'GET', url: '/api/clients', token: otherSecret });
    expect(list.statusCode).toBe(200);
    expect(list.body).not.toContain('Ownerssecret');
    const exported = await inject({ method: 'GET', url: '/api/export.json', token: otherSecret });
    expect(exported.statusCode).toBe(200);
    expect(exported.body).not.toContain(client.id);
    // Nor another owner's tokens, which a token cannot manage anyway.
    const { token: ownersToken } = await createToken(owner);
    const revoke = await inject({
      method: 'DELETE',
      url: `/api/tokens/${ownersToken.id}`,
      cookie: other.cookie,
    });
    expect(revoke.statusCode).toBe(404);
    const after = await snapshotDatabase(testApp.app);
    // The only rows that changed: the other owner's token (last used) and the owner's new token.
    expect(after.clients).toEqual(before.clients);
    expect(after.entries).toEqual(before.entries);
    expect(after.events).toEqual(before.events);
  });

  it('stop working at once when revoked, and a live stream opened with one ends', async () => {
    const owner = await joinAs(testApp.app);
    const { secret, token } = await createToken(owner);
    const first = await inject({ method: 'GET', url: '/api/clients', token: secret });
    expect(first.statusCode).toBe(200);
    const stream = await openStream(baseUrl, '', undefined, { authorization: `Bearer ${secret}` });
    await stream.waitFor((message) => message.event === 'ready');

    const revoked = await inject({
      method: 'DELETE',
      url: `/api/tokens/${token.id}`,
      cookie: owner.cookie,
    });
    expect(revoked.statusCode).toBe(204);
    const after = await inject({ method: 'GET', url: '/api/clients', token: secret });
    expect(after.statusCode).toBe(401);
    expect(after.headers['www-authenticate']).toBe('Bearer error="invalid_token"');
    expect(after.json()).toMatchObject({ error: { code: 'unauthenticated' } });
    await stream.waitFor((message) => message.event === 'end', 1000);
    await stream.ended;
    const again = await inject({
      method: 'DELETE',
      url: `/api/tokens/${token.id}`,
      cookie: owner.cookie,
    });
    expect(again.statusCode).toBe(404);
  });

  it('stop working at once when expired, a live stream too at its next heartbeat', async () => {
    const owner = await joinAs(testApp.app);
    const { secret, token } = await createToken(owner, { expiresAt: '2999-01-01T00:00:00Z' });
    expect((await inject({ method: 'GET', url: '/api/clients', token: secret })).statusCode).toBe(
      200,
    );
    const stream = await openStream(baseUrl, '', undefined, { authorization: `Bearer ${secret}` });
    await stream.waitFor((message) => message.event === 'ready');
    // As time passing would: the expiry moment is now behind us.
    await testApp.app.db.kysely
      .updateTable('access_tokens')
      .set({ expires_at: Date.now() - 1 })
      .where('id', '=', token.id)
      .execute();
    const after = await inject({ method: 'GET', url: '/api/clients', token: secret });
    expect(after.statusCode).toBe(401);
    await stream.waitFor((message) => message.event === 'end', 3000);
    await stream.ended;
  });

  it('refuse every state-changing request of a read-only token, and change nothing', async () => {
    const owner = await joinAs(testApp.app);
    const client = await addClient(owner);
    const { secret } = await createToken(owner, { access: 'read' });
    expect((await inject({ method: 'GET', url: '/api/clients', token: secret })).statusCode).toBe(
      200,
    );
    expect(
      (await inject({ method: 'HEAD', url: `/api/clients/${client.id}`, token: secret }))
        .statusCode,
    ).toBe(200);
    const before = await snapshotDatabase(testApp.app);
    for (const [method, url, payload] of [
      ['POST', '/api/clients', buildClient()],
      ['PUT', `/api/clients/${client.id}`, { ...buildClient(), version: client.version }],
      ['PATCH', `/api/clients/${client.id}/balance`, { balance: 1, version: client.version }],
      ['DELETE', `/api/clients/${client.id}`, undefined],
      ['POST', `/api/clients/${client.id}/entries`, { kind: 'payment', amount: 1 }],
      ['POST', '/api/auth/logout', undefined],
      ['PUT', '/api/settings', { preferences: {} }],
    ] as const) {
      const response = await inject({
        method,
        url,
        token: secret,
        ...(payload ? { payload } : {}),
      });
      expect(response.statusCode, `${method} ${url}`).toBe(403);
      expect(response.json(), `${method} ${url}`).toEqual({
        error: { code: 'forbidden', message: 'This token is read-only' },
      });
    }
    expect(await snapshotDatabase(testApp.app)).toEqual(before);
  });

  it('are refused together with a session cookie, whoever the two belong to', async () => {
    const owner = await joinAs(testApp.app);
    const other = await joinAs(testApp.app);
    const { secret } = await createToken(owner);
    for (const cookie of [owner.cookie, other.cookie, 'balance_session=forged']) {
      for (const [method, url] of [
        ['GET', '/api/clients'],
        ['GET', '/api/auth/session'],
        ['POST', '/api/clients'],
      ] as const) {
        const response = await inject({
          method,
          url,
          token: secret,
          cookie,
          ...(method === 'POST' ? { payload: buildClient() } : {}),
        });
        expect(response.statusCode, `${method} ${url}`).toBe(400);
        expect(response.json()).toEqual({
          error: {
            code: 'validation',
            message: 'Send either a session cookie or a bearer token, not both',
          },
        });
      }
    }
  });

  it('skip the cross-site check, which still refuses a cookie sent from another site', async () => {
    const owner = await joinAs(testApp.app);
    const { secret } = await createToken(owner);
    const foreign = { origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' };
    const withToken = await inject({
      method: 'POST',
      url: '/api/clients',
      token: secret,
      payload: buildClient(),
    });
    expect(withToken.statusCode).toBe(201);
    // A token is no ambient credential a page of another site could ride on, whatever it says.
    const tokenWithOrigin = await inject({
      method: 'POST',
      url: '/api/clients',
      token: secret,
      headers: foreign,
      payload: buildClient(),
    });
    expect(tokenWithOrigin.statusCode).toBe(201);
    const withCookie = await inject({
      method: 'POST',
      url: '/api/clients',
      cookie: owner.cookie,
      headers: foreign,
      payload: buildClient(),
    });
    expect(withCookie.statusCode).toBe(403);
    expect(withCookie.json()).toMatchObject({ error: { code: 'cross_site' } });
    // Cookie and token from another site: refused by the cross-site check before anything else.
    const both = await inject({
      method: 'POST',
      url: '/api/clients',
      cookie: owner.cookie,
      token: secret,
      headers: foreign,
      payload: buildClient(),
    });
    expect(both.statusCode).toBe(403);
  });

  it('cannot manage tokens: that needs a signed-in session', async () => {
    const owner = await joinAs(testApp.app);
    const { secret, token } = await createToken(owner);
    const before = await testApp.app.db.kysely.selectFrom('access_tokens').select('id').execute();
    for (const [method, url] of [
      ['GET', '/api/tokens'],
      ['POST', '/api/tokens'],
      ['DELETE', `/api/tokens/${token.id}`],
    ] as const) {
      const response = await inject({
        method,
        url,
        token: secret,
        ...(method === 'POST' ? { payload: { name: 'minted', access: 'read-write' } } : {}),
      });
      expect(response.statusCode, `${method} ${url}`).toBe(403);
      expect(response.json()).toMatchObject({ error: { code: 'forbidden' } });
    }
    expect(await testApp.app.db.kysely.selectFrom('access_tokens').select('id').execute()).toEqual(
      before,
    );
  });

  it('answer 401 to anything that is not a live token, and leave other schemes alone', async () => {
    const owner = await joinAs(testApp.app);
    for (const header of [
      'Bearer',
      'Bearer ',
      'Bearer bal_',
      `Bearer bal_${'A'.repeat(43)}`,
      `Bearer ${'A'.repeat(43)}`,
      `Bearer bal_${'A'.repeat(42)}!`,
    ]) {
      const response = await inject({
        method: 'GET',
        url: '/api/clients',
        headers: { authorization: header },
      });
      expect(response.statusCode, header).toBe(401);
    }
    // A proxy's Basic authentication in front of the app is not a token: the cookie still works.
    const basic = await inject({
      method: 'GET',
      url: '/api/clients',
      cookie: owner.cookie,
      headers: { authorization: 'Basic dXNlcjpwYXNz' },
    });
    expect(basic.statusCode).toBe(200);
  });

  it('record when a token was last used, at most once a minute', async () => {
    const owner = await joinAs(testApp.app);
    const { secret, token } = await createToken(owner);
    const lastUsed = async () =>
      (
        await testApp.app.db.kysely
          .selectFrom('access_tokens')
          .select('last_used_at')
          .where('id', '=', token.id)
          .executeTakeFirstOrThrow()
      ).last_used_at;
    expect(await lastUsed()).toBeNull();
    await inject({ method: 'GET', url: '/api/clients', token: secret });
    const first = await lastUsed();
    expect(first).toEqual(expect.any(Number));
    await inject({ method: 'GET', url: '/api/clients', token: secret });
    expect(await lastUsed()).toBe(first);
    const list = await inject({ method: 'GET', url: '/api/tokens', cookie: owner.cookie });
    expect(list.json()).toMatchObject({
      tokens: [{ lastUsedAt: new Date(first ?? 0).toISOString() }],
    });
  });

  it('are limited per token: past the limit 429 with Retry-After, other tokens unaffected', async () => {
    const owner = await joinAs(testApp.app);
    const { secret } = await createToken(owner);
    const { secret: second } = await createToken(owner);
    const statuses: number[] = [];
    for (let count = 0; count <= requestsPerMinute; count += 1) {
      statuses.push(
        (await inject({ method: 'GET', url: '/api/clients', token: secret })).statusCode,
      );
    }
    expect(statuses.slice(0, requestsPerMinute).every((status) => status === 200)).toBe(true);
    const refused = await inject({ method: 'GET', url: '/api/clients', token: secret });
    expect(refused.statusCode).toBe(429);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect(Number(refused.headers['retry-after'])).toBeLessThanOrEqual(60);
    expect(refused.json()).toMatchObject({ error: { code: 'rate_limited' } });
    expect((await inject({ method: 'GET', url: '/api/clients', token: second })).statusCode).toBe(
      200,
    );
    expect(
      (await inject({ method: 'GET', url: '/api/clients', cookie: owner.cookie })).statusCode,
    ).toBe(200);
  });

  it('end with their owner: a deleted account leaves no token behind', async () => {
    const owner = await joinAs(testApp.app);
    const { secret } = await createToken(owner);
    await testApp.app.db.kysely.deleteFrom('users').where('id', '=', owner.userId).execute();
    expect((await inject({ method: 'GET', url: '/api/clients', token: secret })).statusCode).toBe(
      401,
    );
    const left = await testApp.app.db.kysely
      .selectFrom('access_tokens')
      .select('id')
      .where('user_id', '=', owner.userId)
      .execute();
    expect(left).toEqual([]);
  });

  it('are written into no log line, whether they work or not', async () => {
    const lines: string[] = [];
    const stream = new Writable({
      write(chunk: Buffer, _encoding, done) {
        lines.push(chunk.toString());
        done();
      },
    });
    const database = await createTestDatabase();
    const app = await buildApp({
      config: { ...loadConfig({}), database: database.config, logLevel: 'trace' },
      logger: { stream },
    });
    try {
      const owner = await joinAs(app);
      const created = await app.inject({
        method: 'POST',
        url: '/api/tokens',
        headers: { cookie: owner.cookie },
        payload: { name: 'logged?', access: 'read' },
      });
      const { secret, token } = created.json<CreatedAccessToken>();
      const bearer = { authorization: `Bearer ${secret}` };
      await app.inject({ method: 'GET', url: '/api/clients', headers: bearer });
      await app.inject({ method: 'POST', url: '/api/clients', headers: bearer, payload: {} });
      await app.inject({
        method: 'DELETE',
        url: `/api/tokens/${token.id}`,
        headers: { cookie: owner.cookie },
      });
      const refused = await app.inject({ method: 'GET', url: '/api/clients', headers: bearer });
      expect(refused.statusCode).toBe(401);
      // One line a request at least (the sign-up, the five above): the check below reads them.
      expect(lines.length).toBeGreaterThanOrEqual(6);
      expect(lines.join('')).toContain(`/api/tokens/${token.id}`);
      expect(lines.join('')).not.toContain(secret.slice(4));
    } finally {
      await app.close();
      await database.drop();
    }
  });
});
