import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../../../tests/app.ts';
import { joinAs, strongPassword } from '../../../../tests/auth.ts';
import { buildClient } from '../../../../tests/factories.ts';
import type { Settings } from '../../../shared/schemas/settings.ts';

let testApp: TestApp;
beforeEach(async () => {
  testApp = await buildTestApp();
});
afterEach(async () => {
  await testApp.close();
});

const call = (
  method: 'GET' | 'PUT' | 'POST',
  url: string,
  cookie: string | null,
  payload?: unknown,
) =>
  testApp.app.inject({
    method,
    url,
    headers: cookie ? { cookie } : {},
    ...(payload === undefined ? {} : { payload: payload as object }),
  });

const firstRunOf = async (cookie: string) =>
  (await call('GET', '/api/auth/session', cookie)).json<{ firstRun: unknown }>().firstRun;

const settingsOf = async (cookie: string) =>
  (await call('GET', '/api/settings', cookie)).json<Settings>();

describe('the first-run setup', () => {
  it('awaits a new owner, from the join on, in US dollars until a currency is chosen', async () => {
    const joined = await call('POST', '/api/auth/join', null, {
      email: 'new.owner@example.com',
      password: strongPassword,
    });
    expect(joined.statusCode).toBe(201);
    expect(joined.json()).toMatchObject({
      firstRun: { mainCurrency: 'USD', setupNeeded: true },
    });
    const owner = await joinAs(testApp.app);
    expect(await firstRunOf(owner.cookie)).toEqual({ mainCurrency: 'USD', setupNeeded: true });
  });

  it('done, keeps the business name, address, tax id, main currency and payment details, and is not offered again on another device', async () => {
    const owner = await joinAs(testApp.app);
    const done = await call('PUT', '/api/settings/setup', owner.cookie, {
      outcome: 'done',
      businessName: '  Kim Trading  ',
      businessAddress: '서울특별시 중구 세종대로 110\r\nSeoul 04524 ',
      taxId: ' 123-45-67890 ',
      mainCurrency: 'KRW',
      paymentDetails: 'Shinhan 110-123-456789',
    });
    expect(done.statusCode).toBe(200);
    expect(done.json()).toEqual({ mainCurrency: 'KRW', setupNeeded: false });
    expect((await settingsOf(owner.cookie)).business).toEqual({
      name: 'Kim Trading',
      address: '서울특별시 중구 세종대로 110\nSeoul 04524',
      paymentDetails: 'Shinhan 110-123-456789',
      taxId: '123-45-67890',
      mainCurrency: 'KRW',
    });

    const elsewhere = await call('POST', '/api/auth/login', null, {
      email: owner.email,
      password: strongPassword,
    });
    expect(elsewhere.json()).toMatchObject({
      firstRun: { mainCurrency: 'KRW', setupNeeded: false },
    });
    expect(await firstRunOf(owner.cookie)).toEqual({ mainCurrency: 'KRW', setupNeeded: false });
  });

  it('skipped, changes nothing else and is not offered again', async () => {
    const owner = await joinAs(testApp.app);
    await call('PUT', '/api/settings', owner.cookie, {
      business: { name: 'Before', address: 'Street 1', paymentDetails: 'IBAN' },
    });
    const skipped = await call('PUT', '/api/settings/setup', owner.cookie, { outcome: 'skipped' });
    expect(skipped.statusCode).toBe(200);
    expect(skipped.json()).toEqual({ mainCurrency: 'USD', setupNeeded: false });
    expect((await settingsOf(owner.cookie)).business).toEqual({
      name: 'Before',
      address: 'Street 1',
      paymentDetails: 'IBAN',
      taxId: '',
      mainCurrency: 'USD',
    });
    expect(await firstRunOf(owner.cookie)).toEqual({ mainCurrency: 'USD', setupNeeded: false });
  });

  it('never awaits an owner who already has clients, though it was never done', async () => {
    const owner = await joinAs(testApp.app);
    const added = await call('POST', '/api/clients', owner.cookie, buildClient());
    expect(added.statusCode).toBe(201);
    expect(await firstRunOf(owner.cookie)).toEqual({ mainCurrency: 'USD', setupNeeded: false });
  });

  it("is each owner's own", async () => {
    const first = await joinAs(testApp.app);
    const second = await joinAs(testApp.app);
    await call('PUT', '/api/settings/setup', first.cookie, {
      outcome: 'done',
      businessName: 'First',
      mainCurrency: 'CAD',
    });
    expect(await firstRunOf(second.cookie)).toEqual({ mainCurrency: 'USD', setupNeeded: true });
    expect((await settingsOf(second.cookie)).business.name).toBe('');
  });

  it('needs a session', async () => {
    expect(
      (await call('PUT', '/api/settings/setup', null, { outcome: 'skipped' })).statusCode,
    ).toBe(401);
    expect((await call('GET', '/api/auth/session', null)).json()).toEqual({ user: null });
  });

  it('refuses, naming the field, a currency Balance does not keep, a done setup without one and a skipped one with details', async () => {
    const owner = await joinAs(testApp.app);
    const cases: [unknown, string][] = [
      [{ outcome: 'done', businessName: 'X', mainCurrency: 'EUR' }, 'mainCurrency'],
      [{ outcome: 'done', mainCurrency: 'RM' }, 'mainCurrency'],
      [{ outcome: 'done', businessName: 'X' }, 'mainCurrency'],
      [{ outcome: 'skipped', businessName: 'X' }, 'businessName'],
      [{ outcome: 'skipped', taxId: '1' }, 'taxId'],
      [{ outcome: 'done', mainCurrency: 'USD', taxId: 'x'.repeat(51) }, 'taxId'],
      [{ outcome: 'done', mainCurrency: 'USD', businessAddress: 'a\u0007b' }, 'businessAddress'],
      [{ outcome: 'later' }, 'outcome'],
      [{ outcome: 'done', mainCurrency: 'USD', businessName: 'x'.repeat(101) }, 'businessName'],
      [{ outcome: 'done', mainCurrency: 'USD', paymentDetails: 'a\u0000b' }, 'paymentDetails'],
    ];
    for (const [payload, field] of cases) {
      const refused = await call('PUT', '/api/settings/setup', owner.cookie, payload);
      expect(refused.statusCode, JSON.stringify(payload)).toBe(400);
      expect(
        Object.keys(refused.json<{ error: { fields: object } }>().error.fields),
        JSON.stringify(payload),
      ).toContain(field);
    }
    // Nothing was kept, and the setup still awaits.
    expect(await firstRunOf(owner.cookie)).toEqual({ mainCurrency: 'USD', setupNeeded: true });
  });
});

describe('the main currency in Settings', () => {
  it('is saved with the business details, validated, and left as it is when left out', async () => {
    const owner = await joinAs(testApp.app);
    const saved = await call('PUT', '/api/settings', owner.cookie, {
      business: { name: 'Kedai', address: '', mainCurrency: 'MYR' },
    });
    expect(saved.statusCode).toBe(200);
    expect(saved.json<Settings>().business.mainCurrency).toBe('MYR');
    expect(await firstRunOf(owner.cookie)).toMatchObject({ mainCurrency: 'MYR' });

    const withoutIt = await call('PUT', '/api/settings', owner.cookie, {
      business: { name: 'Kedai Runcit', address: '' },
    });
    expect(withoutIt.json<Settings>().business).toMatchObject({
      name: 'Kedai Runcit',
      mainCurrency: 'MYR',
    });

    const wrong = await call('PUT', '/api/settings', owner.cookie, {
      business: { name: 'Kedai', address: '', mainCurrency: 'RM' },
    });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json()).toMatchObject({
      error: { fields: { 'business.mainCurrency': 'Choose a currency.' } },
    });
    expect((await settingsOf(owner.cookie)).business.mainCurrency).toBe('MYR');
  });

  it('each section saves alone: the parts left out stay as they are', async () => {
    const owner = await joinAs(testApp.app);
    const rate = { currency: 'KRW', usdPerUnit: '0.00075', date: '2024-05-01' };
    await call('PUT', '/api/settings', owner.cookie, {
      preferences: { disableBalanceOnAdd: true, disableBalanceOnEdit: false },
      rates: [rate],
    });
    await call('PUT', '/api/settings', owner.cookie, {
      business: { name: 'Kim Trading', address: '', mainCurrency: 'KRW' },
    });
    const settings = await settingsOf(owner.cookie);
    expect(settings.preferences).toEqual({
      disableBalanceOnAdd: true,
      disableBalanceOnEdit: false,
    });
    expect(settings.rates).toEqual([rate]);
    expect(settings.business).toMatchObject({ name: 'Kim Trading', mainCurrency: 'KRW' });

    await call('PUT', '/api/settings', owner.cookie, { rates: [] });
    const after = await settingsOf(owner.cookie);
    expect(after.rates).toEqual([]);
    expect(after.preferences.disableBalanceOnAdd).toBe(true);
    expect(after.business.name).toBe('Kim Trading');
  });
});
