import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../../../tests/app.ts';
import { joinAs, strongPassword, uniqueEmail } from '../../../../tests/auth.ts';
import { buildClient } from '../../../../tests/factories.ts';
import { snapshotDatabase } from '../../../../tests/reliability/database-snapshot.ts';
import { openStream } from '../../../../tests/sse.ts';
import type { AccountSessions } from '../../../shared/schemas/account.ts';
import { hashToken, sessionCookieName } from './session.ts';

const chromeOnLinux =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
const safariOnIphone =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1';
const newPassword = 'a brand new passphrase here';
// Matchers typed as unknown, so they can sit in expected objects.
const anyText: unknown = expect.any(String);
const mentionsDisabled: unknown = expect.stringMatching(/disabled/);

let testApp: TestApp;
let admin: { cookie: string; email: string; userId: string };
beforeAll(async () => {
  testApp = await buildTestApp();
  // The first account is the administrator.
  admin = await joinAs(testApp.app);
});
afterAll(async () => {
  await testApp.close();
});

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';
const call = (method: Method, url: string, cookie?: string, payload?: unknown) =>
  testApp.app.inject({
    method,
    url,
    headers: cookie ? { cookie } : {},
    ...(payload === undefined ? {} : { payload: payload as object }),
  });

async function login(email: string, password = strongPassword, userAgent = chromeOnLinux) {
  const response = await testApp.app.inject({
    method: 'POST',
    url: '/api/auth/login',
    payload: { email, password },
    headers: { 'user-agent': userAgent },
  });
  const token = response.cookies.find((cookie) => cookie.name === sessionCookieName)?.value;
  return {
    status: response.statusCode,
    body: response.json<unknown>(),
    cookie: `${sessionCookieName}=${token}`,
  };
}

let address: Promise<string> | null = null;
/** Live streams need real HTTP: the app listens once, for the tests that open one. */
const listening = () => (address ??= testApp.app.listen({ port: 0, host: '127.0.0.1' }));

const signedIn = async (cookie: string) =>
  (await call('GET', '/api/account/sessions', cookie)).statusCode === 200;
const sessionsOf = async (cookie: string) =>
  (await call('GET', '/api/account/sessions', cookie)).json<AccountSessions>().sessions;

describe('the list of sessions', () => {
  it('names each device in plain words, marks this one, and shows no token or hash', async () => {
    const owner = await joinAs(testApp.app);
    const laptop = await login(owner.email, strongPassword, chromeOnLinux);
    await login(owner.email, strongPassword, safariOnIphone);
    const response = await call('GET', '/api/account/sessions', laptop.cookie);
    expect(response.statusCode).toBe(200);
    const { sessions } = response.json<AccountSessions>();
    expect(sessions).toHaveLength(3);
    expect(sessions.map((session) => session.device).sort()).toEqual([
      'Chrome on Linux',
      'Safari on iPhone',
      'Unknown device',
    ]);
    expect(sessions.filter((session) => session.current)).toMatchObject([
      { device: 'Chrome on Linux' },
    ]);
    const token = laptop.cookie.split('=')[1] ?? '';
    expect(response.body).not.toContain(token);
    expect(response.body).not.toContain(hashToken(token));
    for (const session of sessions) {
      expect(Date.parse(session.createdAt)).toBeGreaterThan(0);
      expect(Date.parse(session.lastSeenAt)).toBeGreaterThanOrEqual(Date.parse(session.createdAt));
    }
  });

  it('signs out one session of mine, and only that one', async () => {
    const owner = await joinAs(testApp.app);
    const phone = await login(owner.email, strongPassword, safariOnIphone);
    const target = (await sessionsOf(owner.cookie)).find((s) => s.device === 'Safari on iPhone');
    const response = await call('DELETE', `/api/account/sessions/${target?.id}`, owner.cookie);
    expect(response.statusCode).toBe(204);
    expect(await signedIn(phone.cookie)).toBe(false);
    expect(await signedIn(owner.cookie)).toBe(true);
    expect(await sessionsOf(owner.cookie)).toHaveLength(1);
  });

  it("answers 404 for another user's session, exactly like a missing one, and leaves it alone", async () => {
    const owner = await joinAs(testApp.app);
    const stranger = await joinAs(testApp.app);
    const [theirs] = await sessionsOf(owner.cookie);
    const foreign = await call('DELETE', `/api/account/sessions/${theirs?.id}`, stranger.cookie);
    const missing = await call(
      'DELETE',
      '/api/account/sessions/AAAAAAAAAAAAAAAAAAAAAA',
      stranger.cookie,
    );
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json()).toEqual(missing.json());
    expect(await signedIn(owner.cookie)).toBe(true);
  });

  it('signs out everywhere else, and keeps this session and its live stream', async () => {
    const owner = await joinAs(testApp.app);
    const others = [
      await login(owner.email),
      await login(owner.email, strongPassword, safariOnIphone),
    ];
    const response = await call('POST', '/api/account/sessions/end-others', owner.cookie);
    expect(response.json()).toEqual({ ended: 2 });
    for (const other of others) expect(await signedIn(other.cookie)).toBe(false);
    expect(await sessionsOf(owner.cookie)).toMatchObject([{ current: true }]);
  });

  it('ends the live stream of a session signed out from elsewhere, at once', async () => {
    const owner = await joinAs(testApp.app);
    const laptop = await login(owner.email);
    const baseUrl = await listening();
    const stream = await openStream(baseUrl, laptop.cookie);
    try {
      await stream.waitFor((message) => message.event === 'ready');
      await call('POST', '/api/account/sessions/end-others', owner.cookie);
      await stream.waitFor((message) => message.event === 'end');
      await stream.ended;
    } finally {
      stream.close();
    }
  });
});

describe('changing the password', () => {
  it('refuses a wrong current password and changes nothing', async () => {
    const owner = await joinAs(testApp.app);
    const other = await login(owner.email);
    const response = await call('POST', '/api/account/password', owner.cookie, {
      currentPassword: 'not the password at all',
      newPassword,
    });
    expect(response.statusCode).toBe(403);
    expect(response.json()).toMatchObject({
      error: { code: 'invalid_credentials', fields: { currentPassword: 'is not right' } },
    });
    expect(await signedIn(other.cookie)).toBe(true);
    expect((await login(owner.email)).status).toBe(200);
  });

  it('refuses a common or short new password, naming the field', async () => {
    const owner = await joinAs(testApp.app);
    const common = await call('POST', '/api/account/password', owner.cookie, {
      currentPassword: strongPassword,
      newPassword: 'password123',
    });
    expect(common.json()).toMatchObject({ error: { fields: { newPassword: anyText } } });
    const short = await call('POST', '/api/account/password', owner.cookie, {
      currentPassword: strongPassword,
      newPassword: 'short',
    });
    expect(short.statusCode).toBe(400);
    expect(short.json()).toMatchObject({ error: { fields: { newPassword: anyText } } });
  });

  it('ends every other session, keeps this one, and the new password is the one that works', async () => {
    const owner = await joinAs(testApp.app);
    const other = await login(owner.email);
    const response = await call('POST', '/api/account/password', owner.cookie, {
      currentPassword: strongPassword,
      newPassword,
    });
    expect(response.statusCode).toBe(204);
    expect(await signedIn(other.cookie)).toBe(false);
    expect(await signedIn(owner.cookie)).toBe(true);
    expect((await login(owner.email)).status).toBe(401);
    expect((await login(owner.email, newPassword)).status).toBe(200);
    const row = await testApp.app.db.kysely
      .selectFrom('users')
      .select('password_hash')
      .where('id', '=', owner.userId)
      .executeTakeFirstOrThrow();
    // At the test app's parameters; the production ones are tested in auth.routes.test.ts.
    expect(row.password_hash).toMatch(/^\$argon2id\$v=19\$m=8,t=1,p=1\$/);
  });

  it('counts wrong passwords like failed logins: 429 after a few', async () => {
    const owner = await joinAs(testApp.app);
    const statuses: number[] = [];
    for (let attempt = 0; attempt < 8; attempt += 1) {
      const response = await call('POST', '/api/account/password', owner.cookie, {
        currentPassword: `wrong guess ${attempt}`,
        newPassword,
      });
      statuses.push(response.statusCode);
    }
    expect(statuses.slice(0, 5)).toEqual([403, 403, 403, 403, 403]);
    expect(statuses.at(-1)).toBe(429);
  });
});

describe('changing the e-mail', () => {
  it('asks the password, keeps e-mails unique whatever their case, and signs in with the new one', async () => {
    const owner = await joinAs(testApp.app);
    const taken = await joinAs(testApp.app);
    const wrong = await call('POST', '/api/account/email', owner.cookie, {
      email: uniqueEmail('moved'),
      password: 'not the password',
    });
    expect(wrong.statusCode).toBe(403);
    const clash = await call('POST', '/api/account/email', owner.cookie, {
      email: taken.email.toUpperCase(),
      password: strongPassword,
    });
    expect(clash.statusCode).toBe(409);
    expect(clash.json()).toMatchObject({ error: { code: 'email_taken' } });
    const invalid = await call('POST', '/api/account/email', owner.cookie, {
      email: 'not an e-mail',
      password: strongPassword,
    });
    expect(invalid.json()).toMatchObject({ error: { fields: { email: 'enter valid email' } } });

    const moved = uniqueEmail('moved');
    const response = await call('POST', '/api/account/email', owner.cookie, {
      email: `  ${moved.replace('moved', 'Moved')} `,
      password: strongPassword,
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ user: { email: moved.replace('moved', 'Moved') } });
    expect((await login(owner.email)).status).toBe(401);
    expect((await login(moved)).status).toBe(200);
  });
});

describe('deleting the account', () => {
  async function ownerWithData() {
    const owner = await joinAs(testApp.app);
    const added = await call('POST', '/api/clients', owner.cookie, buildClient());
    expect(added.statusCode).toBe(201);
    const clientId = added.json<{ id: string }>().id;
    await call('POST', `/api/clients/${clientId}/entries`, owner.cookie, {
      kind: 'charge',
      amount: 500,
      note: 'work',
    });
    await call('PUT', '/api/settings', owner.cookie, {
      preferences: { disableBalanceOnAdd: true, disableBalanceOnEdit: false },
      rates: [{ currency: 'CAD', usdPerUnit: '0.73', date: '2024-06-01' }],
    });
    await testApp.app.inject({
      method: 'POST',
      url: '/api/clients',
      headers: { cookie: owner.cookie, 'idempotency-key': `key-${owner.userId}` },
      payload: buildClient(),
    });
    await login(owner.email, 'a wrong password for the count');
    return owner;
  }

  it('refuses a wrong password and deletes nothing', async () => {
    const owner = await ownerWithData();
    const before = await snapshotDatabase(testApp.app, { ignore: { login_throttle: ['*'] } });
    const response = await call('DELETE', '/api/account', owner.cookie, { password: 'wrong one!' });
    expect(response.statusCode).toBe(403);
    expect(await snapshotDatabase(testApp.app, { ignore: { login_throttle: ['*'] } })).toEqual(
      before,
    );
  });

  it("removes every row of the owner in every table, and nothing of anyone else's", async () => {
    const owner = await ownerWithData();
    const bystander = await ownerWithData();
    const baseUrl = await listening();
    const stream = await openStream(baseUrl, owner.cookie);
    await stream.waitFor((message) => message.event === 'ready');
    const before = await snapshotDatabase(testApp.app);
    const mentions = (row: string) => row.includes(owner.userId) || row.includes(owner.email);
    expect(Object.values(before).flat().filter(mentions).length).toBeGreaterThan(8);

    const response = await call('DELETE', '/api/account', owner.cookie, {
      password: strongPassword,
    });
    expect(response.statusCode).toBe(204);
    expect(response.cookies.find((c) => c.name === sessionCookieName)?.value).toBe('');
    await stream.waitFor((message) => message.event === 'end');
    await stream.ended;

    const after = await snapshotDatabase(testApp.app);
    const expected = Object.fromEntries(
      Object.entries(before).map(([table, rows]) => [table, rows.filter((row) => !mentions(row))]),
    );
    expect(after).toEqual(expected);
    expect(await signedIn(owner.cookie)).toBe(false);
    expect((await login(owner.email)).status).toBe(401);
    expect(await signedIn(bystander.cookie)).toBe(true);
  });

  it('keeps the administrator while other accounts depend on it; alone, it may leave', async () => {
    const refused = await call('DELETE', '/api/account', admin.cookie, {
      password: strongPassword,
    });
    expect(refused.statusCode).toBe(409);
    expect(await signedIn(admin.cookie)).toBe(true);

    const fresh = await buildTestApp();
    try {
      const only = await joinAs(fresh.app);
      const response = await fresh.app.inject({
        method: 'DELETE',
        url: '/api/account',
        headers: { cookie: only.cookie },
        payload: { password: strongPassword },
      });
      expect(response.statusCode).toBe(204);
      // The instance is empty again: the next account to join administers it.
      const next = await joinAs(fresh.app);
      const session = await fresh.app.inject({
        method: 'GET',
        url: '/api/auth/session',
        headers: { cookie: next.cookie },
      });
      expect(session.json()).toMatchObject({ user: { isAdmin: true } });
    } finally {
      await fresh.close();
    }
  });
});

describe('the administrator', () => {
  it('answers 403 to anyone else on every administrator route', async () => {
    const user = await joinAs(testApp.app);
    for (const [method, url, payload] of [
      ['GET', '/api/admin/users'],
      ['POST', `/api/admin/users/${admin.userId}/disable`],
      ['POST', `/api/admin/users/${user.userId}/enable`],
      ['POST', `/api/admin/users/${admin.userId}/password-reset`],
      ['POST', '/api/admin/invitations', { email: uniqueEmail('invite') }],
    ] as const) {
      const response = await call(method, url, user.cookie, payload);
      expect(response.statusCode, url).toBe(403);
      expect(response.json(), url).toMatchObject({ error: { code: 'forbidden' } });
    }
    expect(await testApp.app.db.kysely.selectFrom('password_resets').selectAll().execute()).toEqual(
      [],
    );
    expect(await testApp.app.db.kysely.selectFrom('invitations').selectAll().execute()).toEqual([]);
  });

  it('lists accounts with when they were created and last seen, and how many clients each has', async () => {
    const user = await joinAs(testApp.app);
    await call('POST', '/api/clients', user.cookie, buildClient());
    await call('POST', '/api/clients', user.cookie, buildClient());
    const response = await call('GET', '/api/admin/users', admin.cookie);
    expect(response.statusCode).toBe(200);
    const { users } = response.json<{ users: { id: string }[] }>();
    expect(users[0]).toMatchObject({ id: admin.userId, isAdmin: true, disabled: false });
    expect(users.find((row) => row.id === user.userId)).toEqual({
      id: user.userId,
      email: user.email,
      isAdmin: false,
      disabled: false,
      createdAt: anyText,
      lastSeenAt: anyText,
      clients: 2,
    });
    expect(response.body).not.toContain('argon2');
  });

  it('disables an account: its sessions end at once, it cannot sign in, and is told why; enabled, it can', async () => {
    const user = await joinAs(testApp.app);
    const disabled = await call('POST', `/api/admin/users/${user.userId}/disable`, admin.cookie);
    expect(disabled.statusCode).toBe(204);
    expect(await signedIn(user.cookie)).toBe(false);
    const refused = await login(user.email);
    expect(refused.status).toBe(403);
    expect(refused.body).toMatchObject({
      error: { code: 'account_disabled', message: mentionsDisabled },
    });
    // A wrong password learns nothing about the account.
    expect((await login(user.email, 'a wrong password here')).status).toBe(401);

    expect(
      (await call('POST', `/api/admin/users/${user.userId}/enable`, admin.cookie)).statusCode,
    ).toBe(204);
    expect((await login(user.email)).status).toBe(200);
  });

  it('cannot disable itself, and answers 404 for an account that does not exist', async () => {
    const self = await call('POST', `/api/admin/users/${admin.userId}/disable`, admin.cookie);
    expect(self.statusCode).toBe(403);
    expect(self.json()).toMatchObject({
      error: { message: 'You cannot disable your own account' },
    });
    expect(await signedIn(admin.cookie)).toBe(true);
    const missing = await call(
      'POST',
      '/api/admin/users/AAAAAAAAAAAAAAAAAAAAAA/disable',
      admin.cookie,
    );
    expect(missing.statusCode).toBe(404);
  });
});

describe('password reset links', () => {
  const resetWith = (token: string, password = newPassword) =>
    call('POST', '/api/auth/password-reset', undefined, { token, password });

  it('sets a new password once, ends every session of the user, and is stored only hashed', async () => {
    const user = await joinAs(testApp.app);
    const created = await call(
      'POST',
      `/api/admin/users/${user.userId}/password-reset`,
      admin.cookie,
    );
    expect(created.statusCode).toBe(201);
    const { path, expiresAt } = created.json<{ path: string; expiresAt: string }>();
    const token = path.replace('/reset-password/', '');
    expect(token).toMatch(/^[\w-]{43}$/);
    expect(Date.parse(expiresAt) - Date.now()).toBeGreaterThan(23.9 * 3600_000);
    const rows = await testApp.app.db.kysely.selectFrom('password_resets').selectAll().execute();
    expect(JSON.stringify(rows)).not.toContain(token);
    expect(rows.map((row) => row.token_hash)).toContain(hashToken(token));

    expect((await resetWith(token)).statusCode).toBe(204);
    expect(await signedIn(user.cookie)).toBe(false);
    expect((await login(user.email)).status).toBe(401);
    expect((await login(user.email, newPassword)).status).toBe(200);

    const again = await resetWith(token, 'yet another passphrase');
    expect(again.statusCode).toBe(400);
    expect(again.json()).toMatchObject({ error: { code: 'invalid_link' } });
    expect((await login(user.email, newPassword)).status).toBe(200);
  });

  it('expires after its time, and a newer link replaces an older one', async () => {
    const user = await joinAs(testApp.app);
    const first = await call(
      'POST',
      `/api/admin/users/${user.userId}/password-reset`,
      admin.cookie,
    );
    const second = await call(
      'POST',
      `/api/admin/users/${user.userId}/password-reset`,
      admin.cookie,
    );
    const tokenOf = (response: typeof first) =>
      response.json<{ path: string }>().path.replace('/reset-password/', '');
    expect((await resetWith(tokenOf(first))).statusCode).toBe(400);
    await testApp.app.db.kysely
      .updateTable('password_resets')
      .set({ expires_at: Date.now() - 1 })
      .where('token_hash', '=', hashToken(tokenOf(second)))
      .execute();
    expect((await resetWith(tokenOf(second))).statusCode).toBe(400);
    expect((await login(user.email)).status).toBe(200);
  });
});

describe('invitations', () => {
  const closeRegistration = async (allow: boolean) => {
    const response = await call('PUT', '/api/settings', admin.cookie, {
      preferences: { disableBalanceOnAdd: false, disableBalanceOnEdit: false },
      allowRegistration: allow,
      rates: [],
    });
    expect(response.statusCode).toBe(200);
  };
  const join = (email: string, invite?: string) =>
    call('POST', '/api/auth/join', undefined, { email, password: strongPassword, invite });

  it('lets its one e-mail join once while registration is closed, and nobody else', async () => {
    await closeRegistration(false);
    try {
      const invited = uniqueEmail('invited');
      const created = await call('POST', '/api/admin/invitations', admin.cookie, {
        email: invited,
      });
      expect(created.statusCode).toBe(201);
      const invite =
        new URL(created.json<{ path: string }>().path, 'http://x').searchParams.get('invite') ?? '';
      const rows = await testApp.app.db.kysely.selectFrom('invitations').selectAll().execute();
      expect(JSON.stringify(rows)).not.toContain(invite);

      expect((await join(uniqueEmail('stranger'))).json()).toMatchObject({
        error: { code: 'registration_closed' },
      });
      const wrongEmail = await join(uniqueEmail('stranger'), invite);
      expect(wrongEmail.statusCode).toBe(403);
      expect(wrongEmail.json()).toMatchObject({ error: { code: 'invalid_link' } });

      const joined = await join(invited.toUpperCase(), invite);
      expect(joined.statusCode).toBe(201);
      expect((await join(uniqueEmail('second'), invite)).statusCode).toBe(403);
      expect(await testApp.app.db.kysely.selectFrom('invitations').selectAll().execute()).toEqual(
        [],
      );
    } finally {
      await closeRegistration(true);
    }
  });

  it('expires, and is refused for an e-mail already registered', async () => {
    await closeRegistration(false);
    try {
      const taken = await call('POST', '/api/admin/invitations', admin.cookie, {
        email: admin.email,
      });
      expect(taken.statusCode).toBe(409);
      const invited = uniqueEmail('late');
      const created = await call('POST', '/api/admin/invitations', admin.cookie, {
        email: invited,
      });
      const invite = created.json<{ path: string }>().path.split('invite=')[1] ?? '';
      await testApp.app.db.kysely
        .updateTable('invitations')
        .set({ expires_at: Date.now() - 1 })
        .where('token_hash', '=', hashToken(invite))
        .execute();
      expect((await join(invited, invite)).statusCode).toBe(403);
    } finally {
      await closeRegistration(true);
    }
  });
});
