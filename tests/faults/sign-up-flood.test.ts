import { afterEach, describe, expect, it } from 'vitest';
import { productionPasswordHashing } from '../../src/server/config.ts';
import { hashingLimits } from '../../src/server/modules/auth/password.ts';
import { buildTestApp, type TestApp } from '../app.ts';
import { joinAs, strongPassword, uniqueEmail } from '../auth.ts';

function join(testApp: TestApp, remoteAddress: string) {
  return testApp.app.inject({
    method: 'POST',
    url: '/api/auth/join',
    remoteAddress,
    payload: { email: uniqueEmail('flood'), password: strongPassword },
  });
}

describe('sign-up floods', () => {
  let testApp: TestApp | null = null;
  afterEach(async () => {
    await testApp?.close();
    testApp = null;
  });

  it('limits sign-ups per address, and not those of other addresses', async () => {
    testApp = await buildTestApp({ config: { signUpsPerAddressPerHour: 3 } });
    const app = testApp;
    const statuses: number[] = [];
    for (let attempt = 0; attempt < 5; attempt += 1)
      statuses.push((await join(app, '198.51.100.7')).statusCode);
    expect(statuses).toEqual([201, 201, 201, 429, 429]);
    const refused = await join(app, '198.51.100.7');
    expect(refused.json()).toMatchObject({ error: { code: 'rate_limited' } });
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect((await join(app, '198.51.100.8')).statusCode).toBe(201);
  });

  it('hashes only a bounded number of passwords at once: the rest wait in a short line or get 503', async () => {
    // At the production cost: the line forms because each hash takes a real share of a core.
    testApp = await buildTestApp({ config: { passwordHashing: productionPasswordHashing } });
    const app = testApp;
    const flood = 3 * (hashingLimits.running + hashingLimits.waiting);
    const answers = await Promise.all(
      Array.from({ length: flood }, (_, index) => join(app, `10.1.${index >> 8}.${index & 255}`)),
    );
    const statuses = answers.map((answer) => answer.statusCode);
    expect(statuses.filter((status) => ![201, 503].includes(status))).toEqual([]);
    const busy = answers.filter((answer) => answer.statusCode === 503);
    expect(busy.length).toBeGreaterThan(0);
    for (const answer of busy) {
      expect(answer.json()).toEqual({
        error: { code: 'unavailable', message: 'The server is busy; please try again in a moment' },
      });
      expect(answer.headers['retry-after']).toBe('2');
    }
    // The line is gone once the flood has been answered: a real owner gets in.
    expect((await join(app, '192.0.2.1')).statusCode).toBe(201);
  });

  it('refuses sign-ups still hashing when registration closes', async () => {
    // At the production cost, so that sign-ups are still hashing when the switch turns.
    testApp = await buildTestApp({ config: { passwordHashing: productionPasswordHashing } });
    const app = testApp;
    const admin = await joinAs(app.app);
    const inFlight = Array.from({ length: 20 }, (_, index) => join(app, `10.2.0.${index}`));
    const settings = await app.app.inject({
      method: 'GET',
      url: '/api/settings',
      headers: { cookie: admin.cookie },
    });
    const { preferences, rates } = settings.json<{ preferences: object; rates: object[] }>();
    const closed = await app.app.inject({
      method: 'PUT',
      url: '/api/settings',
      headers: { cookie: admin.cookie },
      payload: { preferences, rates, allowRegistration: false },
    });
    expect(closed.statusCode, closed.body).toBe(200);
    const closedAt = Date.now();
    const statuses = (await Promise.all(inFlight)).map((answer) => answer.statusCode);
    expect(statuses.filter((status) => ![201, 403].includes(status))).toEqual([]);
    // Every account that exists was written before registration closed.
    const late = await app.app.db.kysely
      .selectFrom('users')
      .select('email')
      .where('created_at', '>=', closedAt)
      .execute();
    expect(late).toEqual([]);
    expect(statuses.filter((status) => status === 403).length).toBeGreaterThan(0);
  });
});
