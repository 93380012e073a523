import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { buildTestApp, type TestApp } from '../../../../tests/app.ts';
import { joinAs, strongPassword, uniqueEmail } from '../../../../tests/auth.ts';
import { startSmtpServer } from '../../../../tests/smtp.ts';
import type { Config } from '../../config.ts';

const publicUrl = 'https://balance.example.com';
const answer = {
  message: 'If an account uses this e-mail, a link to set a new password is on its way.',
};
const newPassword = 'a brand new passphrase here';

type Smtp = Awaited<ReturnType<typeof startSmtpServer>>;

function appWith(smtp: Smtp | null, config: Partial<Config> = {}) {
  return buildTestApp({
    config: {
      mail: smtp ? { url: smtp.url, from: 'Balance <accounts@example.com>' } : null,
      publicUrl,
      ...config,
    },
  });
}

const post = (testApp: TestApp, url: string, payload: object, ip = '203.0.113.7') =>
  testApp.app.inject({ method: 'POST', url, payload, remoteAddress: ip });

const forgot = (testApp: TestApp, email: string, ip?: string) =>
  post(testApp, '/api/auth/forgot-password', { email }, ip);

const login = (testApp: TestApp, email: string, password: string) =>
  post(testApp, '/api/auth/login', { email, password });

describe('forgot password, with a mail server and PUBLIC_URL', () => {
  let smtp: Smtp;
  beforeAll(async () => {
    smtp = await startSmtpServer();
  });
  afterAll(async () => {
    await smtp.close();
  });

  it('e-mails the account a link on PUBLIC_URL that sets a new password once', async () => {
    const testApp = await appWith(smtp);
    try {
      await joinAs(testApp.app);
      const user = await joinAs(testApp.app);
      expect(
        (await testApp.app.inject({ method: 'GET', url: '/api/settings/public' })).json(),
      ).toEqual({ allowRegistration: true, passwordResetByEmail: true });

      // The address as typed another way still finds the account.
      const response = await forgot(testApp, `  ${user.email.toUpperCase()} `);
      expect(response.statusCode).toBe(202);
      expect(response.json()).toEqual(answer);

      await vi.waitFor(() => expect(smtp.received).toHaveLength(1), { timeout: 10_000 });
      const [mail] = smtp.received;
      expect(mail?.to).toMatchObject({ value: [{ address: user.email }] });
      expect(mail?.from?.value).toEqual([{ name: 'Balance', address: 'accounts@example.com' }]);
      const link = /https?:\/\/\S+/.exec(mail?.text ?? '')?.[0] ?? '';
      expect(link.startsWith(`${publicUrl}/reset-password/`)).toBe(true);
      const token = link.slice(`${publicUrl}/reset-password/`.length);
      expect(token).toMatch(/^[\w-]{43}$/);

      const reset = () =>
        post(testApp, '/api/auth/password-reset', { token, password: newPassword });
      expect((await reset()).statusCode).toBe(204);
      expect((await login(testApp, user.email, strongPassword)).statusCode).toBe(401);
      expect((await login(testApp, user.email, newPassword)).statusCode).toBe(200);
      const again = await reset();
      expect(again.statusCode).toBe(400);
      expect(again.json()).toMatchObject({ error: { code: 'invalid_link' } });
    } finally {
      await testApp.close();
      smtp.received.length = 0;
    }
  });

  it('answers an unknown e-mail and a disabled account the same, and sends them nothing', async () => {
    const testApp = await appWith(smtp);
    const admin = await joinAs(testApp.app);
    const disabled = await joinAs(testApp.app);
    const active = await joinAs(testApp.app);
    expect(
      (
        await testApp.app.inject({
          method: 'POST',
          url: `/api/admin/users/${disabled.userId}/disable`,
          headers: { cookie: admin.cookie },
        })
      ).statusCode,
    ).toBe(204);

    const responses = [
      await forgot(testApp, uniqueEmail('nobody')),
      await forgot(testApp, disabled.email),
      await forgot(testApp, active.email),
    ];
    for (const response of responses) {
      expect(response.statusCode).toBe(202);
      expect(response.json()).toEqual(answer);
    }
    // Closing waits for every e-mail still being sent: after it, all that will arrive has.
    await testApp.close();
    expect(smtp.received.map((mail) => mail.to)).toEqual([
      expect.objectContaining({ value: [expect.objectContaining({ address: active.email })] }),
    ]);
    smtp.received.length = 0;
  });

  it('limits requests per e-mail and per address: 429 with Retry-After', async () => {
    const testApp = await appWith(smtp);
    try {
      const email = uniqueEmail('nobody');
      for (let attempt = 1; attempt <= 3; attempt += 1) {
        expect((await forgot(testApp, email, '198.51.100.1')).statusCode).toBe(202);
      }
      // Another address asking for the same e-mail is refused too: the mailbox is what is spared.
      const perEmail = await forgot(testApp, email.toUpperCase(), '198.51.100.2');
      expect(perEmail.statusCode).toBe(429);
      expect(Number(perEmail.headers['retry-after'])).toBeGreaterThan(0);
      expect(perEmail.json()).toMatchObject({ error: { code: 'rate_limited' } });

      for (let attempt = 1; attempt <= 10; attempt += 1) {
        expect((await forgot(testApp, uniqueEmail('nobody'), '198.51.100.3')).statusCode).toBe(202);
      }
      const perAddress = await forgot(testApp, uniqueEmail('nobody'), '198.51.100.3');
      expect(perAddress.statusCode).toBe(429);
      expect(Number(perAddress.headers['retry-after'])).toBeGreaterThan(0);
      // Other addresses still may ask.
      expect((await forgot(testApp, uniqueEmail('nobody'), '198.51.100.4')).statusCode).toBe(202);
    } finally {
      await testApp.close();
    }
  });

  it('gives the same answer when the mail server refuses the message', async () => {
    const refusing = await startSmtpServer({ refuse: { code: 550, text: 'Mailbox unavailable' } });
    const testApp = await appWith(refusing);
    try {
      const user = await joinAs(testApp.app);
      const response = await forgot(testApp, user.email);
      expect(response.statusCode).toBe(202);
      expect(response.json()).toEqual(answer);
    } finally {
      await testApp.close();
      await refusing.close();
    }
    expect(refusing.received).toHaveLength(0);
  });
});

describe('forgot password, without e-mail resets set up', () => {
  for (const [what, mail, url] of [
    ['no mail server', false, publicUrl],
    ['no PUBLIC_URL', true, null],
  ] as const) {
    it(`with ${what}: refuses plainly, and the public settings say so`, async () => {
      const smtp = mail ? await startSmtpServer() : null;
      const testApp = await appWith(smtp, { publicUrl: url });
      try {
        const user = await joinAs(testApp.app);
        expect(
          (await testApp.app.inject({ method: 'GET', url: '/api/settings/public' })).json(),
        ).toEqual({ allowRegistration: true, passwordResetByEmail: false });
        const response = await forgot(testApp, user.email);
        expect(response.statusCode).toBe(503);
        expect(response.json()).toEqual({
          error: {
            code: 'mail_not_configured',
            message:
              'Password reset by e-mail is not set up on this server; ask the administrator for a password reset link.',
          },
        });
        expect(
          await testApp.app.db.kysely.selectFrom('password_resets').selectAll().execute(),
        ).toEqual([]);
      } finally {
        await testApp.close();
        await smtp?.close();
      }
      expect(smtp?.received ?? []).toHaveLength(0);
    });
  }
});
