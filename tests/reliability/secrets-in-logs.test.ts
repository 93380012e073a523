import { randomBytes } from 'node:crypto';
import net from 'node:net';
import { Writable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { buildApp } from '../../src/server/app.ts';
import { loadConfig } from '../../src/server/config.ts';
import { sessionCookieName } from '../../src/server/modules/auth/session.ts';
import { uniqueEmail } from '../auth.ts';
import { createTestDatabase, type TestDatabase } from '../db.ts';
import { startSmtpServer } from '../smtp.ts';

const publicUrl = 'https://balance.example.com';

/** A secret no log line could hold by chance. */
const secret = (label: string) => `${label}-${randomBytes(12).toString('base64url')}`;

/**
 * Whether any part of the secret is in the log: a parser's error message quotes a few characters
 * of the text around the fault, so looking for the whole value is not enough.
 */
function partsInLog(log: string, value: string, width = 8): string[] {
  const found: string[] = [];
  for (let start = 0; start + width <= value.length; start++) {
    const part = value.slice(start, start + width);
    if (log.includes(part)) found.push(part);
  }
  return found;
}

type Smtp = Awaited<ReturnType<typeof startSmtpServer>>;

/**
 * A GET with the address exactly as written: fetch and app.inject() resolve `/./` and `/../`
 * before sending, as a browser does, but a client of its own need not.
 */
function rawGet(port: number, path: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1');
    let answer = '';
    socket.setEncoding('latin1');
    socket.on('data', (chunk: string) => (answer += chunk));
    socket.on('error', reject);
    socket.on('end', () => resolve(Number(/^HTTP\/1\.1 (\d{3})/.exec(answer)?.[1] ?? 0)));
    socket.write(`GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n`);
  });
}

/** Each character as its escape: `%5A%6B…`. */
const escapedWhole = (value: string) =>
  [...value].map((character) => `%${character.charCodeAt(0).toString(16)}`).join('');

describe.each(['info', 'trace'] as const)('the log at level %s', (logLevel) => {
  let database: TestDatabase;
  let smtp: Smtp;
  let app: FastifyInstance;
  const lines: string[] = [];
  const secrets = new Map<string, string>();
  const keep = (name: string, value: string) => {
    expect(value.length, name).toBeGreaterThanOrEqual(8);
    secrets.set(name, value);
    return value;
  };

  beforeAll(async () => {
    database = await createTestDatabase();
    smtp = await startSmtpServer();
    const smtpUrl = new URL(smtp.url);
    smtpUrl.username = 'mailer';
    smtpUrl.password = keep('SMTP password', secret('smtp'));
    const databaseConfig = database.config;
    if (databaseConfig.dialect === 'postgres') {
      // The test server trusts local connections, so any password gets through.
      const url = new URL(databaseConfig.connectionString);
      url.password = keep('PostgreSQL password', secret('pg'));
      databaseConfig.connectionString = url.toString();
    }
    const stream = new Writable({
      write(chunk: Buffer, _encoding, done) {
        lines.push(chunk.toString());
        done();
      },
    });
    app = await buildApp({
      config: {
        ...loadConfig({}),
        database: databaseConfig,
        logLevel,
        mail: { url: smtpUrl.toString(), from: 'Balance <accounts@example.com>' },
        publicUrl,
        signUpsPerAddressPerHour: 0,
      },
      logger: { stream },
    });
  });

  afterAll(async () => {
    await app.close();
    await smtp.close();
    await database.drop();
  });

  const send = (
    method: 'GET' | 'POST',
    url: string,
    options: { payload?: object | string; cookie?: string; headers?: Record<string, string> } = {},
  ) =>
    app.inject({
      method,
      url,
      ...(options.payload === undefined ? {} : { payload: options.payload }),
      headers: {
        ...(options.cookie ? { cookie: options.cookie } : {}),
        ...(typeof options.payload === 'string' ? { 'content-type': 'application/json' } : {}),
        ...options.headers,
      },
    });

  function sessionOf(response: Awaited<ReturnType<typeof send>>, name: string): string {
    const token = response.cookies.find((cookie) => cookie.name === sessionCookieName)?.value;
    expect(token, `${name}: ${response.statusCode} ${response.body}`).toBeDefined();
    return `${sessionCookieName}=${keep(name, token ?? '')}`;
  }

  it('holds none of the secrets of sign-up, sign-in, resets, invitations and tokens', async () => {
    // Sign-up (the administrator) and sign-in, a wrong password and a body that is not JSON.
    const adminEmail = uniqueEmail('admin');
    const adminPassword = keep('the administrator password', secret('admin-pw'));
    const admin = sessionOf(
      await send('POST', '/api/auth/join', {
        payload: { email: adminEmail, password: adminPassword },
      }),
      'the administrator session',
    );
    sessionOf(
      await send('POST', '/api/auth/login', {
        payload: { email: adminEmail, password: adminPassword },
      }),
      'a second session',
    );
    expect(
      (
        await send('POST', '/api/auth/login', {
          payload: { email: adminEmail, password: `${adminPassword}x` },
        })
      ).statusCode,
    ).toBe(401);
    const brokenPassword = keep('a password in a broken body', secret('broken-pw'));
    expect(
      (
        await send('POST', '/api/auth/login', {
          payload: `{"email":"${adminEmail}","password":"${brokenPassword}"x}`,
        })
      ).statusCode,
    ).toBe(400);

    // Forgot password: the link arrives by mail, its page is opened, the token sets a password.
    const ownerEmail = uniqueEmail('owner');
    const ownerPassword = keep('the owner password', secret('owner-pw'));
    await send('POST', '/api/auth/join', {
      payload: { email: ownerEmail, password: ownerPassword },
    });
    expect(
      (await send('POST', '/api/auth/forgot-password', { payload: { email: ownerEmail } }))
        .statusCode,
    ).toBe(202);
    await vi.waitFor(() => expect(smtp.received).toHaveLength(1), { timeout: 10_000 });
    const mailedLink = /https?:\/\/\S+/.exec(smtp.received[0]?.text ?? '')?.[0] ?? '';
    const mailedPath = mailedLink.slice(publicUrl.length);
    const mailedToken = keep('the mailed reset token', mailedPath.split('/').pop() ?? '');
    await send('GET', mailedPath);
    const resetPassword = keep('a password set by a reset link', secret('reset-pw'));
    expect(
      (
        await send('POST', '/api/auth/password-reset', {
          payload: { token: mailedToken, password: resetPassword },
        })
      ).statusCode,
    ).toBe(204);
    const owner = sessionOf(
      await send('POST', '/api/auth/login', {
        payload: { email: ownerEmail, password: resetPassword },
      }),
      'the owner session',
    );

    // The administrator's reset link, opened, used, and used again (refused).
    const bookId = (await send('GET', '/api/auth/session', { cookie: owner })).json<{
      user: { id: string };
    }>().user.id;
    const adminLink = (
      await send('POST', `/api/admin/users/${bookId}/password-reset`, { cookie: admin })
    ).json<{ path: string }>().path;
    const adminToken = keep('the administrator reset token', adminLink.split('/').pop() ?? '');
    await send('GET', adminLink);
    const adminResetPassword = keep('a password set by the admin link', secret('admin-reset'));
    for (const expected of [204, 400])
      expect(
        (
          await send('POST', '/api/auth/password-reset', {
            payload: { token: adminToken, password: adminResetPassword },
          })
        ).statusCode,
      ).toBe(expected);

    // An invitation, opened and used to join.
    const invitedEmail = uniqueEmail('invited');
    const invitePath = (
      await send('POST', '/api/admin/invitations', {
        cookie: admin,
        payload: { email: invitedEmail },
      })
    ).json<{ path: string }>().path;
    const invite = keep(
      'the invitation token',
      new URL(invitePath, publicUrl).searchParams.get('invite') ?? '',
    );
    await send('GET', invitePath);
    const invitedPassword = keep('the invited password', secret('invited-pw'));
    const invited = sessionOf(
      await send('POST', '/api/auth/join', {
        payload: { email: invitedEmail, password: invitedPassword, invite },
      }),
      'the invited session',
    );

    // The password changed on the account page.
    const changedPassword = keep('a changed password', secret('changed-pw'));
    expect(
      (
        await send('POST', '/api/account/password', {
          cookie: invited,
          payload: { currentPassword: invitedPassword, newPassword: changedPassword },
        })
      ).statusCode,
    ).toBe(204);

    // An access token made, used, sent in the address (refused) and sent wrong.
    const created = await send('POST', '/api/tokens', {
      cookie: admin,
      payload: { name: 'script', access: 'read-write' },
    });
    expect(created.statusCode, created.body).toBe(201);
    const accessToken = keep('the access token', created.json<{ secret: string }>().secret);
    const bearer = { authorization: `Bearer ${accessToken}` };
    expect((await send('GET', '/api/clients', { headers: bearer })).statusCode).toBe(200);
    expect(
      (await send('POST', '/api/clients', { headers: bearer, payload: { firstName: 'x' } }))
        .statusCode,
    ).toBe(400);
    expect((await send('GET', `/api/clients?access_token=${accessToken}`)).statusCode).toBe(401);
    await send('GET', `/api/nowhere?access_token=${accessToken}&page=2`);
    await send('GET', `/clients?token=${accessToken}`);
    const wrongToken = keep('a wrong access token', `bal_${randomBytes(32).toString('base64url')}`);
    expect(
      (await send('GET', '/api/clients', { headers: { authorization: `Bearer ${wrongToken}` } }))
        .statusCode,
    ).toBe(401);
    await send('GET', '/api/clients', { headers: { ...bearer, cookie: admin } });

    // A client link: made, opened with its files, replaced, and guessed at.
    const client = await send('POST', '/api/clients', {
      cookie: admin,
      payload: {
        firstName: 'Link',
        lastName: 'Holder',
        email: 'link.holder@example.com',
        phone: '5550102030',
        currency: 'USD',
        balance: 500,
      },
    });
    expect(client.statusCode, client.body).toBe(201);
    const linkUrl = `/api/clients/${client.json<{ id: string }>().id}/link`;
    const linkPath = (await send('POST', linkUrl, { cookie: admin, payload: {} })).json<{
      path: string;
    }>().path;
    keep('the client link secret', linkPath.split('/').pop() ?? '');
    expect((await send('GET', linkPath)).statusCode).toBe(200);
    expect((await send('GET', `${linkPath}/statement.pdf`)).statusCode).toBe(200);
    expect((await send('GET', `${linkPath}/statement.csv?lang=ko`)).statusCode).toBe(200);
    await send('POST', linkUrl, { cookie: admin, payload: { expiresInDays: 7 } });
    expect((await send('GET', linkPath)).statusCode).toBe(410);
    // A guess with no digit nor capital, unlike most random secrets.
    const guess = keep('a guessed client link', 'abcdefghij'.repeat(4) + 'abc');
    expect((await send('GET', `/c/${guess}`)).statusCode).toBe(404);

    const log = lines.join('');
    expect(lines.length).toBeGreaterThan(20);
    // The requests are in the log, by their paths with the secrets taken out.
    expect(log).toContain('/reset-password/');
    expect(log).toContain('/join?invite=');
    expect(log).toContain('/c/[redacted]');
    const leaks = [...secrets]
      .map(([name, value]) => ({ name, parts: partsInLog(log, value) }))
      .filter(({ parts }) => parts.length > 0)
      .map(({ name, parts }) => `${name}: ${parts.length} parts, such as ${parts[0]}`);
    expect(leaks).toEqual([]);
  });

  // Issue 52, item 6: `/%63/<secret>` opened the page and wrote the secret to the log.
  it('holds no secret of a client link or a one-time link however its address is written', async () => {
    const cookie = sessionOf(
      await send('POST', '/api/auth/join', {
        payload: { email: uniqueEmail('encoded'), password: secret('encoded-pw') },
      }),
      'the session of the encodings',
    );
    const client = await send('POST', '/api/clients', {
      cookie,
      payload: {
        firstName: 'Encoded',
        lastName: 'Link',
        email: 'encoded.link@example.com',
        phone: '5550102031',
        currency: 'USD',
        balance: 0,
      },
    });
    expect(client.statusCode, client.body).toBe(201);
    const made = await send('POST', `/api/clients/${client.json<{ id: string }>().id}/link`, {
      cookie,
      payload: {},
    });
    const live = keep(
      'a live link secret',
      made.json<{ path: string }>().path.split('/').pop() ?? '',
    );
    // Random secrets with no digit are rare but real: the shape rule alone misses them.
    const noDigit = keep('a link secret with no digit', 'Abcdefghij'.repeat(4) + 'abc');
    const resetToken = keep('a reset token with no digit', 'Klmnopqrst'.repeat(4) + 'klm');
    const inviteToken = keep('an invitation with no digit', 'Uvwxyzabcd'.repeat(4) + 'uvw');

    lines.length = 0;
    await app.listen({ port: 0, host: '127.0.0.1' });
    const address = app.server.address();
    const port = typeof address === 'object' && address ? address.port : 0;
    const answers: Record<string, number> = {};
    for (const path of [
      `/%63/${live}`,
      `/%63/${live}/statement.csv`,
      `/%63/${live}?from=mail`,
      `/%63/${noDigit}`,
      `/%43/${live}`,
      `/C/${live}`,
      `/c%2F${live}`,
      `/c%2f${live}`,
      `/%2563/${live}`,
      `//c//${live}`,
      `/./c/${live}`,
      `/api/../c/${live}`,
      `/c/./${live}`,
      `/c/${live}/`,
      `/c/${escapedWhole(live)}`,
      `/?next=%2Fc%2F${live}`,
      `/%72eset-password/${resetToken}`,
      `/RESET-PASSWORD/${resetToken}`,
      `/reset-password%2F${resetToken}`,
      `/join?%69nvite=${inviteToken}`,
    ])
      answers[path.replace(live, '<live>')] = await rawGet(port, path);
    // The router serves the page for the encoded prefix: the case this is about.
    expect(answers['/%63/<live>']).toBe(200);
    expect(answers['/%63/<live>/statement.csv']).toBe(200);

    const log = lines.join('');
    const leaks = [live, noDigit, resetToken, inviteToken]
      .map((value) => ({ value, parts: partsInLog(log, value) }))
      .filter(({ parts }) => parts.length > 0)
      .map(
        ({ value, parts }) => `${value.slice(0, 4)}…: ${parts.length} parts, such as ${parts[0]}`,
      );
    expect(leaks).toEqual([]);
    expect(log).toContain('/c/[redacted]');
    expect(log).toContain('/reset-password/[redacted]');
  });
});
