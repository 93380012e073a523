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
  await expect(page.getByRole('button', { name: '저장' })).toBeVisible();
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
  await expect(page.getByRole('button', { name: 'Save' })).toBeVisible();
  await expect(page.locator('html')).toHaveAttribute('lang', 'en-US');
  const session = (await (await page.request.get('/api/auth/session')).json()) as {
    language: string | null;
  };
  expect(session.language).toBe('en');
});
