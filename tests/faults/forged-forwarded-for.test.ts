import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/server/config.ts';
import { throttlePolicies } from '../../src/server/modules/auth/throttle.ts';
import { buildTestApp, type TestApp } from '../app.ts';
import { uniqueEmail } from '../auth.ts';
import { fullRun } from './fault-run.ts';

let forged = 0;

/** A failed login for a new e-mail, claiming a new address in front of the one the proxy saw. */
async function forgedLogin(testApp: TestApp, realClient: string): Promise<number> {
  forged += 1;
  const answer = await testApp.app.inject({
    method: 'POST',
    url: '/api/auth/login',
    remoteAddress: '127.0.0.1',
    headers: { 'x-forwarded-for': `198.51.${forged % 250}.${(forged * 7) % 250}, ${realClient}` },
    payload: { email: uniqueEmail('guess'), password: 'not the password at all' },
  });
  return answer.statusCode;
}

/** An address one failure short of its limit, as if it had been guessing for a while. */
async function nearlyBlocked(testApp: TestApp, address: string): Promise<void> {
  await testApp.app.db.kysely
    .insertInto('login_throttle')
    .values({
      key: `address:${address}`,
      failures: throttlePolicies.address.blockAfter - 1,
      window_started_at: Date.now(),
    })
    .execute();
}

describe('X-Forwarded-For written by the client', () => {
  let testApp: TestApp | null = null;
  afterEach(async () => {
    await testApp?.close();
    testApp = null;
  });

  it.each(
    fullRun ? ['true', '1', '127.0.0.1', '127.0.0.0/8, 10.0.0.1'] : ['true', '10.0.0.1, 127.0.0.1'],
  )(
    'cannot slip past the per-address login limit with a new forged address each time (TRUST_PROXY=%s)',
    async (trustProxy) => {
      const { trustProxy: parsed } = loadConfig({ TRUST_PROXY: trustProxy });
      testApp = await buildTestApp({ config: { trustProxy: parsed } });
      await nearlyBlocked(testApp, '203.0.113.9');
      expect(await forgedLogin(testApp, '203.0.113.9')).toBe(401);
      expect(await forgedLogin(testApp, '203.0.113.9')).toBe(429);
    },
  );

  it('still tells real clients behind the proxy apart', async () => {
    testApp = await buildTestApp({ config: { trustProxy: 1 } });
    await nearlyBlocked(testApp, '203.0.113.1');
    expect(await forgedLogin(testApp, '203.0.113.1')).toBe(401);
    expect(await forgedLogin(testApp, '203.0.113.2')).toBe(401);
    expect(await forgedLogin(testApp, '203.0.113.1')).toBe(429);
  });

  it('believes no forwarded address without TRUST_PROXY', async () => {
    testApp = await buildTestApp({ config: { trustProxy: false } });
    await nearlyBlocked(testApp, '127.0.0.1');
    expect(await forgedLogin(testApp, '203.0.113.3')).toBe(401);
    expect(await forgedLogin(testApp, '203.0.113.4')).toBe(429);
  });
});
