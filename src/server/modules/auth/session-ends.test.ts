import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../../../tests/app.ts';
import { joinAs, strongPassword, uniqueEmail } from '../../../../tests/auth.ts';
import { hashToken, sessionCookieName } from './session.ts';

// Whatever ends a session ends it for the very next request, on both dialects, including changes
// made with bare statements outside any route.
let testApp: TestApp;
beforeAll(async () => {
  testApp = await buildTestApp();
});
afterAll(async () => {
  await testApp.close();
});

const sessionStatus = async (cookie: string) =>
  (await testApp.app.inject({ method: 'GET', url: '/api/clients', headers: { cookie } }))
    .statusCode;

const tokenHashOf = (cookie: string) => hashToken(cookie.slice(`${sessionCookieName}=`.length));

describe('a session', () => {
  it('ends for the next request when its row is deleted', async () => {
    const { app } = testApp;
    const { cookie } = await joinAs(app);
    expect(await sessionStatus(cookie)).toBe(200);
    expect(await sessionStatus(cookie)).toBe(200);
    await app.db.kysely
      .deleteFrom('sessions')
      .where('token_hash', '=', tokenHashOf(cookie))
      .execute();
    expect(await sessionStatus(cookie)).toBe(401);
  });

  it('ends for the next request when its user is disabled, inside a transaction', async () => {
    const { app } = testApp;
    const { cookie, userId } = await joinAs(app);
    const other = await joinAs(app);
    expect(await sessionStatus(cookie)).toBe(200);
    expect(await sessionStatus(other.cookie)).toBe(200);
    await app.db.kysely.transaction().execute(async (trx) => {
      await trx
        .updateTable('users')
        .set({ disabled_at: Date.now() })
        .where('id', '=', userId)
        .execute();
      // Not yet committed: the session still stands until the commit.
      expect(await sessionStatus(cookie)).toBe(200);
    });
    expect(await sessionStatus(cookie)).toBe(401);
    expect(await sessionStatus(other.cookie)).toBe(200);
  });

  it('ends for the next request after signing out', async () => {
    const { app } = testApp;
    const { cookie } = await joinAs(app);
    expect(await sessionStatus(cookie)).toBe(200);
    const logout = await app.inject({
      method: 'POST',
      url: '/api/auth/logout',
      headers: { cookie },
    });
    expect(logout.statusCode).toBeLessThan(300);
    expect(await sessionStatus(cookie)).toBe(401);
  });

  it('ends the other sessions for their next request when the password changes', async () => {
    const { app } = testApp;
    const owner = await joinAs(app);
    const login = await app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email: owner.email, password: strongPassword },
    });
    expect(login.statusCode).toBe(200);
    const token = login.cookies.find((cookie) => cookie.name === sessionCookieName)?.value;
    const elsewhere = `${sessionCookieName}=${token ?? ''}`;
    expect(await sessionStatus(elsewhere)).toBe(200);

    const change = await app.inject({
      method: 'POST',
      url: '/api/account/password',
      headers: { cookie: owner.cookie },
      payload: { currentPassword: strongPassword, newPassword: 'a different long passphrase 2026' },
    });
    expect(change.statusCode).toBe(204);
    expect(await sessionStatus(elsewhere)).toBe(401);
    expect(await sessionStatus(owner.cookie)).toBe(200);
  });

  it('answers the new e-mail at once after it changes', async () => {
    const { app } = testApp;
    const owner = await joinAs(app);
    const session = async () =>
      (
        await app.inject({
          method: 'GET',
          url: '/api/auth/session',
          headers: { cookie: owner.cookie },
        })
      ).json<{ user: { email: string } }>().user.email;
    expect(await session()).toBe(owner.email);
    const moved = uniqueEmail('moved');
    const change = await app.inject({
      method: 'POST',
      url: '/api/account/email',
      headers: { cookie: owner.cookie },
      payload: { email: moved, password: strongPassword },
    });
    expect(change.statusCode).toBeLessThan(300);
    expect(await session()).toBe(moved);
  });
});
