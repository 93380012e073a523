import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../../../tests/app.ts';
import { joinAs, strongPassword, uniqueEmail } from '../../../../tests/auth.ts';
import { buildClient } from '../../../../tests/factories.ts';
import { addDays, utcDay } from '../../../shared/dates.ts';
import type { Client, ClientList } from '../../../shared/schemas/clients.ts';
import type { Settings, SettingsUpdate } from '../../../shared/schemas/settings.ts';

// Each test gets a fresh instance: the first account to join is the administrator.
let testApp: TestApp;
beforeEach(async () => {
  testApp = await buildTestApp();
});
afterEach(async () => {
  await testApp.close();
});

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH';
const call = (method: Method, url: string, cookie: string | null, payload?: unknown) =>
  testApp.app.inject({
    method,
    url,
    headers: cookie ? { cookie } : {},
    ...(payload === undefined ? {} : { payload: payload as object }),
  });

const noRates: SettingsUpdate = {
  preferences: { disableBalanceOnAdd: false, disableBalanceOnEdit: false },
  rates: [],
};

describe('settings', () => {
  it('start at the defaults of the specification', async () => {
    const admin = await joinAs(testApp.app);
    const owner = await joinAs(testApp.app);
    expect((await call('GET', '/api/settings', admin.cookie)).json()).toEqual({
      preferences: { disableBalanceOnAdd: false, disableBalanceOnEdit: false },
      allowRegistration: true,
      rates: [],
      business: { name: '', address: '', paymentDetails: '', taxId: '', mainCurrency: 'USD' },
    });
    // Only the administrator sees the registration switch.
    expect(
      (await call('GET', '/api/settings', owner.cookie)).json<Settings>().allowRegistration,
    ).toBeNull();
    expect((await call('GET', '/api/settings/public', null)).json()).toEqual({
      allowRegistration: true,
      passwordResetByEmail: false,
    });
  });

  it('need a session, except the public registration state', async () => {
    expect((await call('GET', '/api/settings', null)).statusCode).toBe(401);
    expect((await call('PUT', '/api/settings', null, noRates)).statusCode).toBe(401);
    expect((await call('GET', '/api/settings/public', null)).statusCode).toBe(200);
  });
});

describe('the registration switch', () => {
  it('closed by the administrator, refuses sign-ups on the server and creates nothing', async () => {
    const admin = await joinAs(testApp.app);
    const closed = await call('PUT', '/api/settings', admin.cookie, {
      ...noRates,
      allowRegistration: false,
    });
    expect(closed.statusCode).toBe(200);
    expect(closed.json<Settings>().allowRegistration).toBe(false);
    expect((await call('GET', '/api/settings/public', null)).json()).toEqual({
      allowRegistration: false,
      passwordResetByEmail: false,
    });

    const users = await testApp.app.db.kysely.selectFrom('users').select('id').execute();
    const refused = await call('POST', '/api/auth/join', null, {
      email: uniqueEmail(),
      password: strongPassword,
    });
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toEqual({
      error: { code: 'registration_closed', message: 'Registration is closed' },
    });
    expect(await testApp.app.db.kysely.selectFrom('users').select('id').execute()).toEqual(users);

    // Existing accounts still log in.
    expect(
      (
        await call('POST', '/api/auth/login', null, {
          email: admin.email,
          password: strongPassword,
        })
      ).statusCode,
    ).toBe(200);
    expect(
      (await call('PUT', '/api/settings', admin.cookie, { ...noRates, allowRegistration: true }))
        .statusCode,
    ).toBe(200);
    expect(
      (
        await call('POST', '/api/auth/join', null, {
          email: uniqueEmail(),
          password: strongPassword,
        })
      ).statusCode,
    ).toBe(201);
  });

  it('cannot be changed by anyone but the administrator', async () => {
    await joinAs(testApp.app);
    const owner = await joinAs(testApp.app);
    const attempt = await call('PUT', '/api/settings', owner.cookie, {
      ...noRates,
      allowRegistration: false,
    });
    expect(attempt.statusCode).toBe(403);
    expect(attempt.json()).toMatchObject({ error: { code: 'forbidden' } });
    expect((await call('GET', '/api/settings/public', null)).json()).toEqual({
      allowRegistration: true,
      passwordResetByEmail: false,
    });
    // The owner's own preferences are theirs to change.
    const own = await call('PUT', '/api/settings', owner.cookie, {
      ...noRates,
      preferences: { disableBalanceOnAdd: true, disableBalanceOnEdit: false },
    });
    expect(own.statusCode).toBe(200);
    expect(own.json<Settings>().preferences.disableBalanceOnAdd).toBe(true);
  });
});

describe('balance preferences', () => {
  it('with "disable balance on add", a hand-made add request carrying a balance stores 0', async () => {
    const { cookie } = await joinAs(testApp.app);
    const other = await joinAs(testApp.app);
    await call('PUT', '/api/settings', cookie, {
      ...noRates,
      preferences: { disableBalanceOnAdd: true, disableBalanceOnEdit: false },
    });
    const added = await call('POST', '/api/clients', cookie, buildClient({ balance: 99_999 }));
    expect(added.statusCode).toBe(201);
    expect(added.json<Client>().balance).toBe(0);
    // Preferences belong to their owner only.
    expect(
      (
        await call('POST', '/api/clients', other.cookie, buildClient({ balance: 99_999 }))
      ).json<Client>().balance,
    ).toBe(99_999);
  });

  it('with "disable balance on edit", an edit keeps the stored balance whatever the request says', async () => {
    const { cookie } = await joinAs(testApp.app);
    const client = (
      await call('POST', '/api/clients', cookie, buildClient({ balance: 5_000 }))
    ).json<Client>();
    await call('PUT', '/api/settings', cookie, {
      ...noRates,
      preferences: { disableBalanceOnAdd: false, disableBalanceOnEdit: true },
    });
    const edited = await call('PUT', `/api/clients/${client.id}`, cookie, {
      ...buildClient({ firstName: 'Grace', balance: 1 }),
      version: 1,
    });
    expect(edited.statusCode).toBe(200);
    expect(edited.json()).toMatchObject({ firstName: 'Grace', balance: 5_000, version: 2 });
    // The currency stays too: 5,000 minor units of USD must not turn into 5,000 won.
    const recurrenced = await call('PUT', `/api/clients/${client.id}`, cookie, {
      ...buildClient({ currency: 'KRW', balance: 5_000 }),
      version: 2,
    });
    expect(recurrenced.json()).toMatchObject({ balance: 5_000, currency: 'USD', version: 3 });
  });
});

describe('exchange rates', () => {
  it('add one approximate, dated figure to the list once every currency present has a rate', async () => {
    const { cookie } = await joinAs(testApp.app);
    await call(
      'POST',
      '/api/clients',
      cookie,
      buildClient({ balance: 3_000_000, currency: 'KRW' }),
    );
    await call('POST', '/api/clients', cookie, buildClient({ balance: 125_450, currency: 'CAD' }));
    await call('POST', '/api/clients', cookie, buildClient({ balance: 1_000, currency: 'USD' }));
    const list = async () => (await call('GET', '/api/clients', cookie)).json<ClientList>();
    expect((await list()).converted).toBeNull();

    const onlyKrw = {
      ...noRates,
      rates: [{ currency: 'KRW', usdPerUnit: '0.00074', date: '2026-11-20' }],
    };
    expect((await call('PUT', '/api/settings', cookie, onlyKrw)).statusCode).toBe(200);
    expect((await list()).converted).toBeNull();

    const both = {
      ...noRates,
      rates: [...onlyKrw.rates, { currency: 'CAD', usdPerUnit: '0.73', date: '2026-11-21' }],
    };
    const saved = await call('PUT', '/api/settings', cookie, both);
    expect(saved.json<Settings>().rates).toEqual([
      { currency: 'CAD', usdPerUnit: '0.73', date: '2026-11-21' },
      { currency: 'KRW', usdPerUnit: '0.00074', date: '2026-11-20' },
    ]);
    // By hand: 2,220.00 + 915.785 + 10.00 = 3,145.785, rounded once: 3,145.79.
    expect((await list()).converted).toEqual({ usdTotal: '314579', ratesDate: '2026-11-20' });
  });

  it.each([
    [{ currency: 'KRW', usdPerUnit: 'abc', date: '2026-11-21' }, 'rates.0.usdPerUnit'],
    [{ currency: 'KRW', usdPerUnit: '-1', date: '2026-11-21' }, 'rates.0.usdPerUnit'],
    [{ currency: 'KRW', usdPerUnit: '0', date: '2026-11-21' }, 'rates.0.usdPerUnit'],
    [{ currency: 'KRW', usdPerUnit: '0.0000000000001', date: '2026-11-21' }, 'rates.0.usdPerUnit'],
    [{ currency: 'KRW', usdPerUnit: '0.1', date: '2026-02-30' }, 'rates.0.date'],
    [{ currency: 'USD', usdPerUnit: '1', date: '2026-11-21' }, 'rates.0.currency'],
  ])('refuse the rate %j, naming %s, and keep what was there', async (rate, field) => {
    const { cookie } = await joinAs(testApp.app);
    const before = (await call('GET', '/api/settings', cookie)).json<Settings>();
    const response = await call('PUT', '/api/settings', cookie, { ...noRates, rates: [rate] });
    expect(response.statusCode).toBe(400);
    expect(Object.keys(response.json<{ error: { fields: object } }>().error.fields)).toContain(
      field,
    );
    expect((await call('GET', '/api/settings', cookie)).json()).toEqual(before);
  });

  it('refuse a rate taken on a day that has not come yet anywhere, and keep what was there', async () => {
    const { cookie } = await joinAs(testApp.app);
    const before = (await call('GET', '/api/settings', cookie)).json<Settings>();
    // The day after tomorrow in UTC: past midnight nowhere on Earth yet.
    const future = addDays(utcDay(), 2);
    const rate = { currency: 'CAD', usdPerUnit: '0.73', date: future };
    const response = await call('PUT', '/api/settings', cookie, { ...noRates, rates: [rate] });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({
      error: { fields: { 'rates.0.date': 'The date of a rate cannot be in the future.' } },
    });
    expect((await call('GET', '/api/settings', cookie)).json()).toEqual(before);
    const today = { ...rate, date: utcDay() };
    expect(
      (await call('PUT', '/api/settings', cookie, { ...noRates, rates: [today] })).statusCode,
    ).toBe(200);
  });

  it('refuse two rates for one currency and a body that is not a settings body', async () => {
    const { cookie } = await joinAs(testApp.app);
    const twice = { currency: 'CAD', usdPerUnit: '0.7', date: '2026-11-21' };
    expect(
      (await call('PUT', '/api/settings', cookie, { ...noRates, rates: [twice, twice] }))
        .statusCode,
    ).toBe(400);
    const notBoolean = await call('PUT', '/api/settings', cookie, {
      ...noRates,
      preferences: { disableBalanceOnAdd: 'yes', disableBalanceOnEdit: false },
    });
    expect(notBoolean.statusCode).toBe(400);
    expect(notBoolean.json()).toMatchObject({
      error: { fields: { 'preferences.disableBalanceOnAdd': 'Use true or false.' } },
    });
  });
});
