import { expect, joinThroughApi, test } from './fixtures.ts';

test.describe('names in Korean', () => {
  test.use({ locale: 'ko-KR' });

  test('a one-syllable surname is taken, the name shows family name first, and the messages are Korean', async ({
    page,
  }) => {
    await joinThroughApi(page);
    await page.goto('/client/add');
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await page.getByRole('button', { name: '저장' }).click();
    await expect(page.getByText('이름을 입력하세요')).toBeVisible();
    await expect(page.getByText('성을 입력하세요')).toBeVisible();
    await expect(page.getByText('이메일을 입력하세요')).toBeVisible();
    await expect(page.getByText('전화번호를 입력하세요')).toBeVisible();

    // A Latin name part keeps the specification's minimum, said in Korean.
    await page.getByLabel('이름', { exact: true }).fill('A');
    await page.getByLabel('성', { exact: true }).fill('김');
    await page.getByLabel('이메일').fill('seoyeon@example.kr');
    await page.getByLabel('전화번호').fill('010-1234-5678');
    await page.getByRole('button', { name: '저장' }).click();
    await expect(page.getByText('2자 이상이어야 합니다')).toHaveCount(1);

    await page.getByLabel('이름', { exact: true }).fill('서연');
    await page.getByRole('button', { name: '저장' }).click();
    await expect(page).toHaveURL('/');
    const row = page.getByRole('row', { name: /김서연/ });
    await expect(row).toBeVisible();
    await row.getByRole('link', { name: '김서연' }).click();
    await expect(page.getByRole('heading', { level: 1, name: '김서연' })).toBeVisible();
    await expect(page).toHaveTitle(/^김서연/);
  });
});

test.describe('names in Malay', () => {
  test.use({ locale: 'ms-MY' });

  test('the client form says its messages in Malay', async ({ page }) => {
    await joinThroughApi(page);
    await page.goto('/client/add');
    await page.getByRole('button', { name: 'Hantar' }).click();
    await expect(page.getByText('nama pertama diperlukan')).toBeVisible();
    await expect(page.getByText('nama keluarga diperlukan')).toBeVisible();
    await page.getByLabel('Nama pertama').fill('Z');
    await page.getByLabel('Nama pertama').blur();
    await expect(page.getByText('mestilah sekurang-kurangnya 2 aksara')).toBeVisible();
  });
});
