import { Writable } from 'node:stream';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../../../tests/app.ts';
import { joinAs, strongPassword, uniqueEmail } from '../../../../tests/auth.ts';
import { buildApp } from '../../app.ts';
import { loadConfig } from '../../config.ts';
import { createTestDatabase } from '../../../../tests/db.ts';
import { hashPassword } from './password.ts';
import { hashToken, sessionCookieName } from './session.ts';
import { throttlePolicies } from './throttle.ts';

let testApp: TestApp;
beforeAll(async () => {
  testApp = await buildTestApp();
});
afterAll(async () => {
  await testApp.close();
});

const post = (url: string, payload: unknown, headers: Record<string, string> = {}) =>
  testApp.app.inject({ method: 'POST', url, payload: payload as object, headers });
const sessionOf = async (cookie: string) =>
  (
    await testApp.app.inject({ method: 'GET', url: '/api/auth/session', headers: { cookie } })
  ).json<{
    user: { email: string; isAdmin: boolean } | null;
  }>().user;
const countRows = async (table: 'users' | 'sessions') =>
  Number(
    (
      await testApp.app.db.kysely
        .selectFrom(table)
        .select((eb) => eb.fn.countAll().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  );

describe('join', () => {
  it('creates the account, makes the first one the administrator, and signs in', async () => {
    const first = await joinAs(testApp.app);
    expect(await sessionOf(first.cookie)).toMatchObject({ email: first.email, isAdmin: true });
    const second = await joinAs(testApp.app);
    expect(await sessionOf(second.cookie)).toMatchObject({ email: second.email, isAdmin: false });
  });

  it('makes exactly one administrator when the first two sign-ups arrive together', async () => {
    const fresh = await buildTestApp();
    try {
      const answers = await Promise.all(
        [uniqueEmail(), uniqueEmail(), uniqueEmail()].map((email) =>
          fresh.app.inject({
            method: 'POST',
            url: '/api/auth/join',
            payload: { email, password: strongPassword },
          }),
        ),
      );
      expect(answers.map((answer) => answer.statusCode)).toEqual([201, 201, 201]);
      const admins = answers.filter(
        (answer) => answer.json<{ user: { isAdmin: boolean } }>().user.isAdmin,
      );
      expect(admins).toHaveLength(1);
    } finally {
      await fresh.close();
    }
  });

  it('sets an HttpOnly, SameSite=Lax session cookie with no expiry, holding at least 128 random bits', async () => {
    const response = await post('/api/auth/join', {
      email: uniqueEmail(),
      password: strongPassword,
    });
    expect(response.statusCode).toBe(201);
    const cookie = response.cookies.find((c) => c.name === sessionCookieName);
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Lax', path: '/' });
    expect(cookie?.expires).toBeUndefined();
    expect(cookie?.maxAge).toBeUndefined();
    expect(cookie?.secure).toBeUndefined();
    expect(Buffer.from(cookie?.value ?? '', 'base64url').length).toBeGreaterThanOrEqual(16);
  });

  it('stores only a hash of the session token', async () => {
    const { cookie } = await joinAs(testApp.app);
    const token = cookie.split('=')[1] ?? '';
    const rows = await testApp.app.db.kysely.selectFrom('sessions').select('token_hash').execute();
    expect(rows.map((row) => row.token_hash)).toContain(hashToken(token));
    expect(rows.map((row) => row.token_hash)).not.toContain(token);
  });

  it('refuses an e-mail already registered, whatever its case', async () => {
    const email = uniqueEmail('Case');
    await joinAs(testApp.app, email);
    const response = await post('/api/auth/join', {
      email: email.toUpperCase(),
      password: strongPassword,
    });
    expect(response.statusCode).toBe(409);
    expect(response.json()).toMatchObject({
      error: { code: 'email_taken', message: 'This e-mail is already registered.' },
    });
  });

  it.each([
    ['too short', 'short12', 'Use at least 8 characters.'],
    ['too long', 'x'.repeat(257), 'Use at most 256 characters.'],
    [
      'one of the most common',
      'password123',
      'This password is one of the most common; choose another.',
    ],
    ['missing', '', 'Enter a password.'],
  ])('refuses a password that is %s, naming the field', async (_label, password, message) => {
    const users = await countRows('users');
    const response = await post('/api/auth/join', { email: uniqueEmail(), password });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({
      error: { code: 'validation', fields: { password: message } },
    });
    expect(await countRows('users')).toBe(users);
  });

  it('names every bad field at once', async () => {
    const response = await post('/api/auth/join', { email: 'not-an-email' });
    expect(response.statusCode).toBe(400);
    const { fields } = response.json<{ error: { fields: Record<string, string> } }>().error;
    expect(fields.email).toBe('enter valid email');
    expect(fields.password).toBeDefined();
  });

  it('accepts a 64-character password with spaces and non-ASCII characters, exactly', async () => {
    const password = 'Ünïcödé pässwörd with spaces — 日本語 and emoji 🙂 ok!! 123456789012';
    expect([...password].length).toBe(64);
    const email = uniqueEmail();
    await joinAs(testApp.app, email, password);
    expect((await post('/api/auth/login', { email, password })).statusCode).toBe(200);
    expect(
      (await post('/api/auth/login', { email, password: password.slice(0, -1) })).statusCode,
    ).toBe(401);
    expect((await post('/api/auth/login', { email, password: ` ${password}` })).statusCode).toBe(
      401,
    );
  });

  it('leaves nothing behind when a step of the transaction fails', async () => {
    const broken = await buildTestApp();
    try {
      // Make the session insert fail after the user insert has run in the same transaction.
      await sql`drop table sessions`.execute(broken.app.db.kysely);
      const response = await broken.app.inject({
        method: 'POST',
        url: '/api/auth/join',
        payload: { email: uniqueEmail(), password: strongPassword },
      });
      expect(response.statusCode).toBe(500);
      expect(response.json()).toEqual({
        error: { code: 'internal', message: 'Something went wrong on the server' },
      });
      const users = await broken.app.db.kysely.selectFrom('users').select('id').execute();
      expect(users).toEqual([]);
    } finally {
      await broken.close();
    }
  });
});

describe('login and logout', () => {
  it('signs in with a new token every time, and logout ends the session on the server', async () => {
    const { email, cookie: joinCookie } = await joinAs(testApp.app);
    const login = await post(
      '/api/auth/login',
      { email: email.toUpperCase(), password: strongPassword },
      { cookie: joinCookie },
    );
    expect(login.statusCode).toBe(200);
    const token = login.cookies.find((c) => c.name === sessionCookieName)?.value ?? '';
    expect(`${sessionCookieName}=${token}`).not.toBe(joinCookie);
    // The session the login replaced is gone.
    expect(await sessionOf(joinCookie)).toBeNull();
    const cookie = `${sessionCookieName}=${token}`;
    expect(await sessionOf(cookie)).toMatchObject({ email });

    const logout = await post('/api/auth/logout', {}, { cookie });
    expect(logout.statusCode).toBe(204);
    expect(logout.cookies.find((c) => c.name === sessionCookieName)?.value).toBe('');
    expect(await sessionOf(cookie)).toBeNull();
    const rows = await testApp.app.db.kysely
      .selectFrom('sessions')
      .where('token_hash', '=', hashToken(token))
      .selectAll()
      .execute();
    expect(rows).toEqual([]);
  });

  it('gives a wrong password and an unknown e-mail the same answer', async () => {
    const { email } = await joinAs(testApp.app);
    const wrongPassword = await post('/api/auth/login', { email, password: 'not the password' });
    const unknownEmail = await post('/api/auth/login', {
      email: uniqueEmail('nobody'),
      password: 'not the password',
    });
    expect(wrongPassword.statusCode).toBe(401);
    expect(unknownEmail.statusCode).toBe(401);
    expect(wrongPassword.body).toBe(unknownEmail.body);
    expect(wrongPassword.json()).toEqual({
      error: { code: 'invalid_credentials', message: 'Invalid email or password' },
    });
  });
});

// The other tests' app hashes at the smallest cost (tests/app.ts); this one hashes with what
// `loadConfig` gives a real server, so the parameters that run in production are the ones tested.
describe('password hashing at the production cost', () => {
  let productionApp: TestApp;
  beforeAll(async () => {
    productionApp = await buildTestApp({
      config: { passwordHashing: loadConfig({}).passwordHashing },
    });
  });
  afterAll(async () => {
    await productionApp.close();
  });
  const post = (url: string, payload: unknown) =>
    productionApp.app.inject({ method: 'POST', url, payload: payload as object });

  it("stores a new account's password with the production parameters", async () => {
    const { email } = await joinAs(productionApp.app);
    const row = await productionApp.app.db.kysely
      .selectFrom('users')
      .select('password_hash')
      .where('email', '=', email)
      .executeTakeFirstOrThrow();
    expect(row.password_hash).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
  });

  it('upgrades a hash made with weaker parameters at the next login', async () => {
    const { email } = await joinAs(productionApp.app);
    const { argon2Sync, randomBytes } = await import('node:crypto');
    const salt = randomBytes(16);
    const weak = argon2Sync('argon2id', {
      message: strongPassword,
      nonce: salt,
      parallelism: 1,
      memory: 8192,
      passes: 1,
      tagLength: 32,
    });
    const weakHash = `$argon2id$v=19$m=8192,t=1,p=1$${salt.toString('base64url')}$${weak.toString('base64url')}`;
    await productionApp.app.db.kysely
      .updateTable('users')
      .set({ password_hash: weakHash })
      .where('email', '=', email)
      .execute();
    expect((await post('/api/auth/login', { email, password: strongPassword })).statusCode).toBe(
      200,
    );
    const row = await productionApp.app.db.kysely
      .selectFrom('users')
      .select('password_hash')
      .where('email', '=', email)
      .executeTakeFirstOrThrow();
    expect(row.password_hash).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    expect((await post('/api/auth/login', { email, password: strongPassword })).statusCode).toBe(
      200,
    );
  });

  it('stores passwords with argon2id at OWASP parameters and a salt of their own', async () => {
    const [a, b] = [
      await hashPassword('same password', loadConfig({}).passwordHashing),
      await hashPassword('same password', loadConfig({}).passwordHashing),
    ];
    expect(a).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    expect(a).not.toBe(b);
  });
});

describe('session limits', () => {
  it('ends a session idle for longer than the idle limit, and one older than the absolute limit', async () => {
    const { cookie } = await joinAs(testApp.app);
    const tokenHash = hashToken(cookie.split('=')[1] ?? '');
    const { sessionIdleMs, sessionMaxMs } = testApp.app.config;
    const db = testApp.app.db.kysely;
    await db
      .updateTable('sessions')
      .set({ last_seen_at: Date.now() - sessionIdleMs - 1000 })
      .where('token_hash', '=', tokenHash)
      .execute();
    expect(await sessionOf(cookie)).toBeNull();
    expect(
      await db.selectFrom('sessions').where('token_hash', '=', tokenHash).selectAll().execute(),
    ).toEqual([]);

    const busy = await joinAs(testApp.app);
    const busyHash = hashToken(busy.cookie.split('=')[1] ?? '');
    await db
      .updateTable('sessions')
      .set({ created_at: Date.now() - sessionMaxMs - 1000 })
      .where('token_hash', '=', busyHash)
      .execute();
    expect(await sessionOf(busy.cookie)).toBeNull();
  });

  it('ignores a cookie that is not one of ours', async () => {
    expect(await sessionOf(`${sessionCookieName}=forged`)).toBeNull();
    expect(await sessionOf(`${sessionCookieName}=${'A'.repeat(43)}`)).toBeNull();
  });
});

describe('abuse', () => {
  it('slows repeated failures, then answers 429 with Retry-After to that address, even for the right password', async () => {
    const { email } = await joinAs(testApp.app);
    const failures: number[] = [];
    for (let attempt = 1; attempt <= throttlePolicies.pair.blockAfter; attempt++) {
      const started = performance.now();
      const response = await post('/api/auth/login', { email, password: `wrong ${attempt}` });
      failures.push(performance.now() - started);
      expect(response.statusCode).toBe(401);
    }
    // From the third failure on, the answer is held back (a lower bound only: never flaky).
    expect(failures[throttlePolicies.pair.slowAfter - 1]).toBeGreaterThanOrEqual(350);
    const blocked = await post('/api/auth/login', { email, password: strongPassword });
    expect(blocked.statusCode).toBe(429);
    expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(0);
    expect(blocked.json()).toMatchObject({ error: { code: 'rate_limited' } });
  });

  it('counts attempts sent all at once: no guess slips past the limit', async () => {
    const { email } = await joinAs(testApp.app);
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        // From an address of its own, so the shared test address keeps its budget.
        testApp.app.inject({
          method: 'POST',
          url: '/api/auth/login',
          payload: { email, password: i === 19 ? strongPassword : `wrong ${i}` },
          remoteAddress: '10.1.1.1',
        }),
      ),
    );
    const codes = answers.map((answer) => answer.statusCode);
    // Only the first five attempts reach the password check at all.
    expect(codes.filter((code) => code !== 429)).toHaveLength(throttlePolicies.pair.blockAfter);
    expect(codes.filter((code) => code === 429)).toHaveLength(
      20 - throttlePolicies.pair.blockAfter,
    );
  });

  it('answers 429 per address when one address has failed too often, whatever the account', async () => {
    const { email } = await joinAs(testApp.app);
    const db = testApp.app.db.kysely;
    const address = 'address:10.9.8.7';
    await db
      .insertInto('login_throttle')
      .values({
        key: address,
        failures: throttlePolicies.address.blockAfter,
        window_started_at: Date.now(),
      })
      .execute();
    const fromThatAddress = await testApp.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email, password: strongPassword },
      remoteAddress: '10.9.8.7',
    });
    expect(fromThatAddress.statusCode).toBe(429);
    expect((await post('/api/auth/login', { email, password: strongPassword })).statusCode).toBe(
      200,
    );
  });

  it('refuses state-changing requests from another site', async () => {
    const payload = { email: uniqueEmail(), password: strongPassword };
    const fromOrigin = await post('/api/auth/join', payload, { origin: 'https://evil.example' });
    expect(fromOrigin.statusCode).toBe(403);
    expect(fromOrigin.json()).toMatchObject({ error: { code: 'cross_site' } });
    const fromFetchSite = await post('/api/auth/join', payload, { 'sec-fetch-site': 'cross-site' });
    expect(fromFetchSite.statusCode).toBe(403);
    const sameOrigin = await post('/api/auth/join', payload, {
      origin: 'http://localhost:3000',
      host: 'localhost:3000',
      'sec-fetch-site': 'same-origin',
    });
    expect(sameOrigin.statusCode).toBe(201);
  });

  it('marks the cookie Secure when served over HTTPS behind a trusted proxy', async () => {
    const proxied = await buildTestApp({ config: { trustProxy: 1 } });
    try {
      const response = await proxied.app.inject({
        method: 'POST',
        url: '/api/auth/join',
        payload: { email: uniqueEmail(), password: strongPassword },
        headers: { 'x-forwarded-proto': 'https' },
      });
      expect(response.statusCode).toBe(201);
      expect(response.cookies.find((c) => c.name === sessionCookieName)?.secure).toBe(true);
      expect(response.headers['strict-transport-security']).toBeDefined();
    } finally {
      await proxied.close();
    }
  });
});

describe('logging', () => {
  it('writes no password and no session token into any log line', async () => {
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
      const email = uniqueEmail();
      const password = 'a secret nobody should log 42';
      const join = await app.inject({
        method: 'POST',
        url: '/api/auth/join',
        payload: { email, password },
      });
      const token = join.cookies.find((c) => c.name === sessionCookieName)?.value ?? '';
      const cookie = `${sessionCookieName}=${token}`;
      await app.inject({
        method: 'POST',
        url: '/api/auth/login',
        payload: { email, password: `${password}x` },
        headers: { cookie },
      });
      await app.inject({ method: 'GET', url: '/api/auth/session', headers: { cookie } });
      await app.inject({ method: 'POST', url: '/api/auth/logout', headers: { cookie } });
      const log = lines.join('');
      // One line a request at least: the check below reads them.
      expect(lines.length).toBeGreaterThanOrEqual(4);
      expect(log).toContain('/api/auth/logout');
      expect(token.length).toBe(43);
      expect(log).not.toContain(password);
      expect(log).not.toContain(token);
    } finally {
      await app.close();
      await database.drop();
    }
  });
});
