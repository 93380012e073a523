import type { Page } from '@playwright/test';
import { expect, joinThroughApi, password, test } from './fixtures.ts';

const languageSaved = (page: Page) =>
  page.waitForResponse(
    (response) =>
      response.url().endsWith('/api/settings/language') && response.request().method() === 'PUT',
  );

test('the language chosen in Settings shows at once, stays after a reload and follows the account to another device', async ({
  page,
  browser,
}) => {
  const email = await joinThroughApi(page);
  await page.goto('/setting');
  await expect(page.getByRole('heading', { name: 'Settings' })).toBeVisible();
  const language = page.getByLabel('Language');
  // A browser in English starts in English.
  await expect(language).toHaveValue('en');

  const savedKorean = languageSaved(page);
  await language.selectOption({ label: '한국어' });
  expect((await savedKorean).status()).toBe(200);
  await expect(page.getByRole('heading', { name: '설정' })).toBeVisible();
  await expect(page.getByLabel('고객 추가 시 잔액 입력 끄기')).toBeVisible();
  await expect(page.getByRole('button', { name: '금액과 환율 저장' })).toBeVisible();
  await expect(page.locator('html')).toHaveAttribute('lang', 'ko-KR');

  await page.reload();
  await expect(page.getByRole('heading', { name: '설정' })).toBeVisible();
  await expect(page.getByLabel('언어')).toHaveValue('ko');

  // Another device, which has never chosen a language, signs in to the same account.
  const elsewhere = await browser.newContext();
  try {
    const device = await elsewhere.newPage();
    await device.goto('/login');
    await device.getByLabel('Email').fill(email);
    await device.getByLabel('Password').fill(password);
    await device.getByRole('button', { name: 'Submit' }).click();
    // Signed in, the page turns Korean: the navbar is named in Korean too.
    await expect(device.locator('html')).toHaveAttribute('lang', 'ko-KR');
    await expect(
      device.getByRole('navigation', { name: '주 메뉴' }).getByText(email),
    ).toBeVisible();
    await device.goto('/setting');
    await expect(device.getByRole('heading', { name: '설정' })).toBeVisible();
  } finally {
    await elsewhere.close();
  }

  const savedEnglish = languageSaved(page);
  await page.getByLabel('언어').selectOption({ label: 'English' });
  expect((await savedEnglish).status()).toBe(200);
  // The specification's texts are back, word for word.
  await expect(page.getByRole('heading', { name: 'Settings' })).toBeVisible();
  await expect(page.getByLabel('Disable balance on add')).toBeVisible();
  await expect(page.getByLabel('Disable balance on edit')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Save money and rates' })).toBeVisible();
  await expect(page.locator('html')).toHaveAttribute('lang', 'en-US');
  const session = (await (await page.request.get('/api/auth/session')).json()) as {
    language: string | null;
  };
  expect(session.language).toBe('en');
});

// The select once showed English again while the Malay texts were on their way. Holding the Malay
// texts back makes that moment as long as the test needs. Picking right after the page loads also
// once hit the visitor's language menu in the navbar, shown while the session was still loading
// (issue 43): the pick went there, was not kept with the account, and the menu vanished. The
// next test holds the session answer and shows that cause on every run; three picks
// here keep the whole flow covered without the half a minute ten took.
test('Bahasa Melayu picked in Settings right after the page loads stays picked and is the language saved', async ({
  page,
}) => {
  await joinThroughApi(page);
  for (let attempt = 0; attempt < 3; attempt += 1) {
    const reset = await page.request.put('/api/settings/language', { data: { language: 'en' } });
    expect(reset.status()).toBe(200);
    await page.goto('/');
    await page.evaluate(() => localStorage.removeItem('balance.language'));
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route(/\/assets\/ms-[\w-]+\.js$/, async (route) => {
      await held;
      await route.continue();
    });
    const sent: unknown[] = [];
    page.on('request', (request) => {
      if (request.url().endsWith('/api/settings/language')) sent.push(request.postDataJSON());
    });
    await page.goto('/setting');
    const saved = languageSaved(page);
    await page.getByLabel('Language').selectOption('ms');
    await expect(page.getByLabel('Language')).toHaveValue('ms');
    release();
    expect((await saved).status()).toBe(200);
    await expect(page.getByRole('heading', { name: 'Tetapan' })).toBeVisible();
    await expect(page.getByLabel('Bahasa')).toHaveValue('ms');
    expect(sent).toEqual([{ language: 'ms' }]);
    await page.unrouteAll();
    page.removeAllListeners('request');
  }
});

test('a signed-in page offers no visitor language menu while its session loads', async ({
  page,
}) => {
  await joinThroughApi(page);
  let release = () => {};
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route(/\/api\/auth\/session$/, async (route) => {
    await held;
    await route.continue();
  });
  await page.goto('/setting');
  await expect(
    page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Balance' }),
  ).toBeVisible();
  await expect(page.getByLabel('Language')).toHaveCount(0);
  await expect(page.getByRole('link', { name: 'Log in' })).toHaveCount(0);
  release();
  const saved = languageSaved(page);
  await page.getByLabel('Language').selectOption('ms');
  expect((await saved).status()).toBe(200);
  await expect(page.getByLabel('Bahasa')).toHaveValue('ms');
});

// The navbar's select (signed out) had the same fault: it showed English until the Malay texts came.
test('Bahasa Melayu picked in the navbar before signing in stays picked while its texts load', async ({
  page,
}) => {
  let release = () => {};
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route(/\/assets\/ms-[\w-]+\.js$/, async (route) => {
    await held;
    await route.continue();
  });
  await page.goto('/login');
  await page.getByLabel('Language').selectOption('ms');
  await expect(page.getByLabel('Language')).toHaveValue('ms');
  release();
  await expect(page.locator('html')).toHaveAttribute('lang', /^ms/);
  await expect(page.getByLabel('Bahasa')).toHaveValue('ms');
});
