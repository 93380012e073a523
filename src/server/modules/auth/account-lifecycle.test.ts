import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { buildTestApp, type TestApp } from '../../../../tests/app.ts';
import { joinAs, strongPassword, uniqueEmail } from '../../../../tests/auth.ts';
import { buildClient } from '../../../../tests/factories.ts';
import { snapshotDatabase } from '../../../../tests/reliability/database-snapshot.ts';
import { startSmtpServer } from '../../../../tests/smtp.ts';
import { openStream } from '../../../../tests/sse.ts';
import type { CreatedAccessToken } from '../../../shared/schemas/access-tokens.ts';

// The account's life cycle against what runs beside it: writers of the same owner while the
// account is deleted, API tokens and reset links across a change of password, and what a
// deleted account leaves behind.

const publicUrl = 'https://balance.example.com';
const newPassword = 'a brand new passphrase here';

type Smtp = Awaited<ReturnType<typeof startSmtpServer>>;
let smtp: Smtp;
let testApp: TestApp;
let admin: { cookie: string; email: string; userId: string };
beforeAll(async () => {
  smtp = await startSmtpServer();
  testApp = await buildTestApp({
    config: {
      mail: { url: smtp.url, from: 'Balance <accounts@example.com>' },
      publicUrl,
      // The writers below send far more than a script would; the limit is not what is tested.
      tokenRequestsPerMinute: 1_000_000,
    },
  });
  admin = await joinAs(testApp.app);
});
afterAll(async () => {
  await testApp.close();
  await smtp.close();
});

interface Call {
  method: 'GET' | 'POST' | 'DELETE';
  url: string;
  cookie?: string;
  token?: string;
  payload?: object;
  idempotencyKey?: string;
}
const call = ({ method, url, cookie, token, payload, idempotencyKey }: Call) =>
  testApp.app.inject({
    method,
    url,
    headers: {
      ...(cookie ? { cookie } : {}),
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...(idempotencyKey ? { 'idempotency-key': idempotencyKey } : {}),
    },
    ...(payload ? { payload } : {}),
  });

async function createToken(cookie: string): Promise<string> {
  const response = await call({
    method: 'POST',
    url: '/api/tokens',
    cookie,
    payload: { name: 'script', access: 'read-write' },
  });
  expect(response.statusCode, response.body).toBe(201);
  return response.json<CreatedAccessToken>().secret;
}

async function addClient(cookie: string): Promise<string> {
  const response = await call({
    method: 'POST',
    url: '/api/clients',
    cookie,
    payload: buildClient(),
  });
  expect(response.statusCode, response.body).toBe(201);
  return response.json<{ id: string }>().id;
}

const login = (email: string, password: string) =>
  call({ method: 'POST', url: '/api/auth/login', payload: { email, password } });

let address: Promise<string> | null = null;
const listening = () => (address ??= testApp.app.listen({ port: 0, host: '127.0.0.1' }));

describe('deleting an account while its tokens write', () => {
  const rounds = 8;
  const writersPerRound = 6;

  it('always succeeds, and every write answers 2xx, 401 or 404, never 500', async () => {
    const statuses = new Map<number, number>();
    const deletions: number[] = [];
    for (let round = 0; round < rounds; round++) {
      const owner = await joinAs(testApp.app);
      const clientId = await addClient(owner.cookie);
      const tokens = await Promise.all(
        Array.from({ length: writersPerRound }, () => createToken(owner.cookie)),
      );
      let started = 0;
      let deleted = false;
      // Each writer alternates payments to the one client and new clients until it is refused;
      // half of them send an Idempotency-Key, as the web app does, which is kept outside the
      // write path.
      const writer = async (token: string, index: number) => {
        for (let step = 0; ; step++) {
          const idempotencyKey =
            index < writersPerRound / 2 ? `writer-${round}-${index}-${step}` : '';
          const response =
            (index + step) % 2 === 0
              ? await call({
                  method: 'POST',
                  url: `/api/clients/${clientId}/entries`,
                  token,
                  payload: { kind: 'payment', amount: 100, note: 'on account' },
                  idempotencyKey,
                })
              : await call({
                  method: 'POST',
                  url: '/api/clients',
                  token,
                  payload: buildClient(),
                  idempotencyKey,
                });
          statuses.set(response.statusCode, (statuses.get(response.statusCode) ?? 0) + 1);
          if (response.statusCode >= 500) expect.soft(response.body).toBe('not a 5xx');
          started++;
          // A failed deletion leaves the account, and the writers would write on: they stop too.
          if (response.statusCode >= 300 || (deleted && deletions.at(-1) !== 204)) return;
        }
      };
      const writers = tokens.map(writer);
      await vi.waitFor(() => expect(started).toBeGreaterThanOrEqual(writersPerRound * 2), {
        timeout: 10_000,
      });
      const deletion = await call({
        method: 'DELETE',
        url: '/api/account',
        cookie: owner.cookie,
        payload: { password: strongPassword },
      });
      deletions.push(deletion.statusCode);
      if (deletion.statusCode !== 204) expect.soft(deletion.body).toBe('deleted');
      deleted = true;
      await Promise.all(writers);
    }
    const answered = Object.fromEntries(statuses);
    expect(deletions).toEqual(Array.from({ length: rounds }, () => 204));
    const unexpected = Object.keys(answered).filter(
      (status) => !['200', '201', '401', '404'].includes(status),
    );
    expect(unexpected, JSON.stringify(answered)).toEqual([]);
  }, 120_000);
});

describe('deleting an account while its session makes tokens', () => {
  it('always succeeds, and every token request answers 2xx, 401 or 404, never 500', async () => {
    const statuses = new Map<number, number>();
    for (let round = 0; round < 6; round++) {
      const owner = await joinAs(testApp.app);
      let started = 0;
      // Tokens are made outside the write path; each one made is revoked again, to stay in bounds.
      const maker = async () => {
        for (;;) {
          const made = await call({
            method: 'POST',
            url: '/api/tokens',
            cookie: owner.cookie,
            payload: { name: 'script', access: 'read' },
          });
          statuses.set(made.statusCode, (statuses.get(made.statusCode) ?? 0) + 1);
          started++;
          if (made.statusCode !== 201) return;
          const id = made.json<CreatedAccessToken>().token.id;
          const revoked = await call({
            method: 'DELETE',
            url: `/api/tokens/${id}`,
            cookie: owner.cookie,
          });
          statuses.set(revoked.statusCode, (statuses.get(revoked.statusCode) ?? 0) + 1);
          if (revoked.statusCode !== 204) return;
        }
      };
      const makers = Array.from({ length: 4 }, maker);
      await vi.waitFor(() => expect(started).toBeGreaterThanOrEqual(8), { timeout: 10_000 });
      const deletion = await call({
        method: 'DELETE',
        url: '/api/account',
        cookie: owner.cookie,
        payload: { password: strongPassword },
      });
      expect(deletion.statusCode, deletion.body).toBe(204);
      await Promise.all(makers);
    }
    const answered = Object.fromEntries(statuses);
    const unexpected = Object.keys(answered).filter(
      (status) => !['201', '204', '401', '404'].includes(status),
    );
    expect(unexpected, JSON.stringify(answered)).toEqual([]);
  }, 60_000);
});

describe('a change of password', () => {
  it('revokes every API token of the owner and ends the streams opened with them', async () => {
    const owner = await joinAs(testApp.app);
    const token = await createToken(owner.cookie);
    expect((await call({ method: 'GET', url: '/api/clients', token })).statusCode).toBe(200);
    const stream = await openStream(await listening(), '', undefined, {
      authorization: `Bearer ${token}`,
    });
    await stream.waitFor((message) => message.event === 'ready');

    const changed = await call({
      method: 'POST',
      url: '/api/account/password',
      cookie: owner.cookie,
      payload: { currentPassword: strongPassword, newPassword },
    });
    expect(changed.statusCode).toBe(204);

    const read = await call({ method: 'GET', url: '/api/clients', token });
    expect(read.statusCode).toBe(401);
    const write = await call({
      method: 'POST',
      url: '/api/clients',
      token,
      payload: buildClient(),
    });
    expect(write.statusCode).toBe(401);
    await stream.waitFor((message) => message.event === 'end', 1000);
    await stream.ended;
    const listed = await call({ method: 'GET', url: '/api/tokens', cookie: owner.cookie });
    expect(listed.json()).toEqual({ tokens: [] });
  });

  it("revokes them too when the administrator's reset link is used", async () => {
    const owner = await joinAs(testApp.app);
    const token = await createToken(owner.cookie);
    const reset = await resetPassword(await administratorsLink(owner.userId), newPassword);
    expect(reset.statusCode).toBe(204);
    expect((await call({ method: 'GET', url: '/api/clients', token })).statusCode).toBe(401);
  });

  it('revokes them too when the e-mailed "Forgot password?" link is used', async () => {
    const owner = await joinAs(testApp.app);
    const token = await createToken(owner.cookie);
    const reset = await resetPassword(await forgottenPasswordLink(owner.email), newPassword);
    expect(reset.statusCode).toBe(204);
    expect((await call({ method: 'GET', url: '/api/clients', token })).statusCode).toBe(401);
  });

  it('leaves the tokens of other owners alone', async () => {
    const owner = await joinAs(testApp.app);
    const bystander = await joinAs(testApp.app);
    const bystanderToken = await createToken(bystander.cookie);
    await createToken(owner.cookie);
    const changed = await call({
      method: 'POST',
      url: '/api/account/password',
      cookie: owner.cookie,
      payload: { currentPassword: strongPassword, newPassword },
    });
    expect(changed.statusCode).toBe(204);
    const read = await call({ method: 'GET', url: '/api/clients', token: bystanderToken });
    expect(read.statusCode).toBe(200);
  });
});

// Issue 52, item 7: a new e-mail ended neither the API tokens nor the reset links.
describe('a change of e-mail', () => {
  const changeEmail = (cookie: string) =>
    call({
      method: 'POST',
      url: '/api/account/email',
      cookie,
      payload: { email: uniqueEmail('moved'), password: strongPassword },
    });

  it('revokes every API token of the owner and ends the streams opened with them', async () => {
    const owner = await joinAs(testApp.app);
    const token = await createToken(owner.cookie);
    const stream = await openStream(await listening(), '', undefined, {
      authorization: `Bearer ${token}`,
    });
    await stream.waitFor((message) => message.event === 'ready');
    expect((await changeEmail(owner.cookie)).statusCode).toBe(200);
    expect((await call({ method: 'GET', url: '/api/clients', token })).statusCode).toBe(401);
    await stream.waitFor((message) => message.event === 'end', 1000);
    await stream.ended;
    const listed = await call({ method: 'GET', url: '/api/tokens', cookie: owner.cookie });
    expect(listed.json()).toEqual({ tokens: [] });
  });

  it('ends every other session and keeps this one', async () => {
    const owner = await joinAs(testApp.app);
    const other = await login(owner.email, strongPassword);
    const otherCookie = other.headers['set-cookie']?.toString().split(';')[0] ?? '';
    expect(
      (await call({ method: 'GET', url: '/api/clients', cookie: otherCookie })).statusCode,
    ).toBe(200);
    expect((await changeEmail(owner.cookie)).statusCode).toBe(200);
    expect(
      (await call({ method: 'GET', url: '/api/clients', cookie: otherCookie })).statusCode,
    ).toBe(401);
    expect(
      (await call({ method: 'GET', url: '/api/clients', cookie: owner.cookie })).statusCode,
    ).toBe(200);
  });

  it("makes the reset links made before it, the administrator's and the e-mailed, stop working", async () => {
    const owner = await joinAs(testApp.app);
    const mailed = await forgottenPasswordLink(owner.email);
    const given = await administratorsLink(owner.userId);
    expect((await changeEmail(owner.cookie)).statusCode).toBe(200);
    expect((await resetPassword(mailed, newPassword)).statusCode).toBe(400);
    expect((await resetPassword(given, newPassword)).statusCode).toBe(400);
  });

  it('leaves the tokens of other owners alone, and a refused change ends nothing', async () => {
    const owner = await joinAs(testApp.app);
    const bystander = await joinAs(testApp.app);
    const bystanderToken = await createToken(bystander.cookie);
    const token = await createToken(owner.cookie);
    const refused = await call({
      method: 'POST',
      url: '/api/account/email',
      cookie: owner.cookie,
      payload: { email: bystander.email, password: strongPassword },
    });
    expect(refused.statusCode).toBe(409);
    expect((await call({ method: 'GET', url: '/api/clients', token })).statusCode).toBe(200);
    expect((await changeEmail(owner.cookie)).statusCode).toBe(200);
    const read = await call({ method: 'GET', url: '/api/clients', token: bystanderToken });
    expect(read.statusCode).toBe(200);
  });
});

/** The token of a reset link the administrator makes for this account. */
async function administratorsLink(userId: string): Promise<string> {
  const created = await call({
    method: 'POST',
    url: `/api/admin/users/${userId}/password-reset`,
    cookie: admin.cookie,
  });
  return created.json<{ path: string }>().path.replace('/reset-password/', '');
}

const resetPassword = (token: string, password: string) =>
  call({ method: 'POST', url: '/api/auth/password-reset', payload: { token, password } });

/** Asks "Forgot password?" for this e-mail and returns the token of the link it mails. */
async function forgottenPasswordLink(email: string): Promise<string> {
  const before = smtp.received.length;
  const asked = await call({
    method: 'POST',
    url: '/api/auth/forgot-password',
    payload: { email },
  });
  expect(asked.statusCode).toBe(202);
  await vi.waitFor(() => expect(smtp.received.length).toBe(before + 1), { timeout: 10_000 });
  const text = smtp.received[before]?.text ?? '';
  return /\/reset-password\/([\w-]{43})/.exec(text)?.[1] ?? '';
}

describe('reset links made before a change of password', () => {
  const resetWith = (token: string) => resetPassword(token, 'yet another passphrase');
  const changePassword = (cookie: string) =>
    call({
      method: 'POST',
      url: '/api/account/password',
      cookie,
      payload: { currentPassword: strongPassword, newPassword },
    });

  it("no longer work: the administrator's link", async () => {
    const owner = await joinAs(testApp.app);
    const link = await administratorsLink(owner.userId);
    expect((await changePassword(owner.cookie)).statusCode).toBe(204);
    const used = await resetWith(link);
    expect(used.statusCode).toBe(400);
    expect(used.json()).toMatchObject({ error: { code: 'invalid_link' } });
    expect((await login(owner.email, newPassword)).statusCode).toBe(200);
  });

  it('no longer work: the e-mailed "Forgot password?" link', async () => {
    const owner = await joinAs(testApp.app);
    const link = await forgottenPasswordLink(owner.email);
    expect((await changePassword(owner.cookie)).statusCode).toBe(204);
    expect((await resetWith(link)).statusCode).toBe(400);
    expect((await login(owner.email, newPassword)).statusCode).toBe(200);
  });
});

describe('a deleted account', () => {
  it('leaves no row anywhere that names its e-mail or its id', async () => {
    // An invitation made for an e-mail that then joined the ordinary way is still there.
    const email = uniqueEmail();
    const invited = await call({
      method: 'POST',
      url: '/api/admin/invitations',
      cookie: admin.cookie,
      payload: { email },
    });
    expect(invited.statusCode, invited.body).toBe(201);
    const owner = await joinAs(testApp.app, email);
    const token = await createToken(owner.cookie);
    await addClient(owner.cookie);
    // Every other kind of row that can name the e-mail: a reset asked for by mail (and its
    // counts), a failed login (its counts), and a reset link.
    await forgottenPasswordLink(owner.email);
    expect((await login(owner.email, 'a wrong password here')).statusCode).toBe(401);
    await call({
      method: 'POST',
      url: `/api/admin/users/${owner.userId}/password-reset`,
      cookie: admin.cookie,
    });
    const mentions = (row: string) =>
      row.includes(owner.userId) || row.toLowerCase().includes(owner.email.toLowerCase());
    const before = await snapshotDatabase(testApp.app);
    expect(Object.values(before).flat().filter(mentions).length).toBeGreaterThan(5);

    const deleted = await call({
      method: 'DELETE',
      url: '/api/account',
      cookie: owner.cookie,
      payload: { password: strongPassword },
    });
    expect(deleted.statusCode).toBe(204);

    const after = await snapshotDatabase(testApp.app);
    const left = Object.fromEntries(
      Object.entries(after)
        .map(([table, rows]) => [table, rows.filter(mentions)] as const)
        .filter(([, rows]) => rows.length > 0),
    );
    expect(left).toEqual({});
    expect((await call({ method: 'GET', url: '/api/clients', token })).statusCode).toBe(401);
  });
});
