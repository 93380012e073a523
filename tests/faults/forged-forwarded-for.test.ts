import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/server/config.ts';
import { throttlePolicies } from '../../src/server/modules/auth/throttle.ts';
import { buildTestApp, type TestApp } from '../app.ts';
import { uniqueEmail } from '../auth.ts';
import { fullRun } from './fault-run.ts';

/** Failed logins, each for another e-mail, each claiming a new address in front of the real one. */
async function forgedLogins(testApp: TestApp, realClient: string, count: number) {
  const answers = await Promise.all(
    Array.from({ length: count }, (_, index) =>
      testApp.app.inject({
        method: 'POST',
        url: '/api/auth/login',
        remoteAddress: '127.0.0.1',
        headers: { 'x-forwarded-for': `198.51.${index % 250}.${(index * 7) % 250}, ${realClient}` },
        payload: { email: uniqueEmail('guess'), password: 'not the password at all' },
      }),
    ),
  );
  return answers.map((answer) => answer.statusCode);
}

describe('X-Forwarded-For written by the client', () => {
  let testApp: TestApp | null = null;
  afterEach(async () => {
    await testApp?.close();
    testApp = null;
  });

  const overLimit = throttlePolicies.address.blockAfter + 1;

  it.each(fullRun ? ['true', '1', '127.0.0.1', '127.0.0.0/8, 10.0.0.1'] : ['true'])(
    'does not let forged addresses slip past the per-address login limit (TRUST_PROXY=%s)',
    async (trustProxy) => {
      const { trustProxy: parsed } = loadConfig({ TRUST_PROXY: trustProxy });
      testApp = await buildTestApp({ config: { trustProxy: parsed } });
      const statuses = await forgedLogins(testApp, '203.0.113.9', overLimit);
      expect(statuses.filter((status) => status === 429)).toHaveLength(1);
      expect(statuses.filter((status) => status === 401)).toHaveLength(overLimit - 1);
    },
  );

  it('still tells real clients behind the proxy apart', async () => {
    testApp = await buildTestApp({ config: { trustProxy: 1 } });
    const statuses = await Promise.all(
      Array.from({ length: overLimit }, (_, index) =>
        forgedLogins(testApp as TestApp, `203.0.113.${index + 1}`, 1),
      ),
    );
    expect(statuses.flat().filter((status) => status === 429)).toEqual([]);
  });
});
