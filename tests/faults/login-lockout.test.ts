import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deleteExpired } from '../../src/server/modules/auth/housekeeping.ts';
import { hashToken } from '../../src/server/modules/auth/session.ts';
import { failureDelayMs, throttlePolicies } from '../../src/server/modules/auth/throttle.ts';
import { buildTestApp, type TestApp } from '../app.ts';
import { joinAs, strongPassword } from '../auth.ts';

describe('login throttling that an attacker cannot turn against the owner', () => {
  let testApp: TestApp;
  beforeAll(async () => {
    testApp = await buildTestApp();
  });
  afterAll(async () => {
    await testApp.close();
  });

  const login = (email: string, password: string, remoteAddress: string) =>
    testApp.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      remoteAddress,
      payload: { email, password },
    });

  it('lets the owner in from their own address while guesses elsewhere are refused', async () => {
    const { email } = await joinAs(testApp.app);
    const guesses = await Promise.all(
      Array.from({ length: 12 }, (_, index) =>
        login(email, `wrong guess ${index}`, '203.0.113.66'),
      ),
    );
    const codes = guesses.map((answer) => answer.statusCode);
    expect(codes.filter((code) => code === 401)).toHaveLength(throttlePolicies.pair.blockAfter);
    expect(codes.filter((code) => code === 429)).toHaveLength(
      12 - throttlePolicies.pair.blockAfter,
    );
    // The attacker's own address stays refused, even with the right password ...
    expect((await login(email, strongPassword, '203.0.113.66')).statusCode).toBe(429);
    // ... and the owner, elsewhere, gets in.
    expect((await login(email, strongPassword, '192.0.2.10')).statusCode).toBe(200);
  });

  it('lets the owner in after guesses from many addresses', async () => {
    const { email } = await joinAs(testApp.app);
    const guesses = await Promise.all(
      Array.from({ length: 7 }, (_, index) =>
        login(email, `wrong ${index}`, `198.51.100.${index}`),
      ),
    );
    expect(guesses.map((answer) => answer.statusCode)).toEqual(Array(7).fill(401));
    expect((await login(email, strongPassword, '192.0.2.11')).statusCode).toBe(200);
  });

  it('lets many devices of the owner sign in at once', async () => {
    const { email } = await joinAs(testApp.app);
    const logins = await Promise.all(
      Array.from({ length: 8 }, (_, index) =>
        login(email, strongPassword, `192.0.2.${100 + index}`),
      ),
    );
    expect(logins.map((answer) => answer.statusCode)).toEqual(Array(8).fill(200));
  });

  it('holds back each failure on one account longer than the last, up to a bound', () => {
    const delays = Array.from({ length: 16 }, (_, index) => failureDelayMs('account', index + 1));
    expect(
      delays.slice(0, throttlePolicies.account.slowAfter - 1).every((delay) => delay === 0),
    ).toBe(true);
    const growing = delays.slice(throttlePolicies.account.slowAfter - 1);
    for (let index = 1; index < growing.length; index += 1) {
      expect(growing[index]).toBeGreaterThanOrEqual(growing[index - 1] ?? 0);
    }
    expect(growing[1]).toBeGreaterThan(growing[0] ?? 0);
    expect(Math.max(...delays)).toBe(10_000);
  });

  it('deletes expired sessions and login counts, and keeps the live ones', async () => {
    const db = testApp.app.db.kysely;
    const { userId, cookie } = await joinAs(testApp.app);
    const now = Date.now();
    const { sessionIdleMs, sessionMaxMs } = testApp.app.config;
    await db
      .insertInto('sessions')
      .values([
        {
          token_hash: hashToken('idle'),
          user_id: userId,
          created_at: now - 1000 - sessionIdleMs,
          last_seen_at: now - 1000 - sessionIdleMs,
        },
        {
          token_hash: hashToken('old'),
          user_id: userId,
          created_at: now - 1000 - sessionMaxMs,
          last_seen_at: now,
        },
      ])
      .execute();
    await db
      .insertInto('login_throttle')
      .values([
        { key: 'address:expired', failures: 3, window_started_at: now - 2 * 3_600_000 },
        { key: 'address:live', failures: 3, window_started_at: now },
      ])
      .execute();
    await deleteExpired(db, testApp.app.config, now);
    const sessions = await db
      .selectFrom('sessions')
      .select('token_hash')
      .where('user_id', '=', userId)
      .execute();
    expect(sessions.map((row) => row.token_hash)).toEqual([hashToken(cookie.split('=')[1] ?? '')]);
    const keys = await db
      .selectFrom('login_throttle')
      .select('key')
      .where('key', 'like', 'address:%')
      .execute();
    expect(keys.map((row) => row.key)).toContain('address:live');
    expect(keys.map((row) => row.key)).not.toContain('address:expired');
  });
});
