import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../../../tests/app.ts';
import { joinAs, strongPassword } from '../../../../tests/auth.ts';

let testApp: TestApp;
beforeEach(async () => {
  testApp = await buildTestApp();
});
afterEach(async () => {
  await testApp.close();
});

const setLanguage = (cookie: string | null, payload: unknown) =>
  testApp.app.inject({
    method: 'PUT',
    url: '/api/settings/language',
    headers: cookie ? { cookie } : {},
    payload: payload as object,
  });

const sessionOf = (cookie: string) =>
  testApp.app.inject({ method: 'GET', url: '/api/auth/session', headers: { cookie } });

describe("the account's language", () => {
  it('follows the browser until the owner chooses one', async () => {
    const owner = await joinAs(testApp.app);
    expect((await sessionOf(owner.cookie)).json()).toMatchObject({ language: null });
  });

  it('is kept with the account and given at every sign-in, on any device', async () => {
    const owner = await joinAs(testApp.app);
    const saved = await setLanguage(owner.cookie, { language: 'ko' });
    expect(saved.statusCode).toBe(200);
    expect(saved.json()).toEqual({ language: 'ko' });
    expect((await sessionOf(owner.cookie)).json()).toMatchObject({ language: 'ko' });

    const elsewhere = await testApp.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email: owner.email, password: strongPassword },
    });
    expect(elsewhere.statusCode).toBe(200);
    expect(elsewhere.json()).toMatchObject({ user: { email: owner.email }, language: 'ko' });

    // Back to following the browser.
    expect((await setLanguage(owner.cookie, { language: null })).json()).toEqual({
      language: null,
    });
    expect((await sessionOf(owner.cookie)).json()).toMatchObject({ language: null });
  });

  it("is each owner's own and leaves the other settings as they were", async () => {
    const owner = await joinAs(testApp.app);
    const other = await joinAs(testApp.app);
    const settings = await testApp.app.inject({
      method: 'PUT',
      url: '/api/settings',
      headers: { cookie: owner.cookie },
      payload: {
        preferences: { disableBalanceOnAdd: true, disableBalanceOnEdit: false },
        business: { name: 'Kim Trading', address: '' },
        rates: [],
      },
    });
    expect(settings.statusCode).toBe(200);
    await setLanguage(owner.cookie, { language: 'ms' });
    expect((await sessionOf(other.cookie)).json()).toMatchObject({ language: null });
    const after = await testApp.app.inject({
      method: 'GET',
      url: '/api/settings',
      headers: { cookie: owner.cookie },
    });
    expect(after.json()).toMatchObject({
      preferences: { disableBalanceOnAdd: true, disableBalanceOnEdit: false },
      business: { name: 'Kim Trading' },
    });
    // Saving the screen afterwards keeps the language.
    await testApp.app.inject({
      method: 'PUT',
      url: '/api/settings',
      headers: { cookie: owner.cookie },
      payload: {
        preferences: { disableBalanceOnAdd: false, disableBalanceOnEdit: false },
        rates: [],
      },
    });
    expect((await sessionOf(owner.cookie)).json()).toMatchObject({ language: 'ms' });
  });

  it('refuses a language Balance does not speak, naming the field, and changes nothing', async () => {
    const owner = await joinAs(testApp.app);
    await setLanguage(owner.cookie, { language: 'ko' });
    for (const language of ['fr', 'ko-KR', 'KO', '', 7]) {
      const refused = await setLanguage(owner.cookie, { language });
      expect(refused.statusCode, String(language)).toBe(400);
      expect(refused.json()).toEqual({
        error: {
          code: 'validation',
          message: 'Invalid language',
          fields: { language: 'Choose en, ko or ms, or null to follow the browser.' },
        },
      });
    }
    expect((await setLanguage(owner.cookie, {})).json()).toMatchObject({
      error: { fields: { language: expect.any(String) as string } },
    });
    expect((await sessionOf(owner.cookie)).json()).toMatchObject({ language: 'ko' });
  });

  it('needs a session', async () => {
    expect((await setLanguage(null, { language: 'ko' })).statusCode).toBe(401);
  });
});
