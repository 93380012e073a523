import type { Page } from '@playwright/test';
import { clientRows, expect, joinThroughApi, test } from './fixtures.ts';

async function seed(
  page: Page,
  clients: {
    firstName: string;
    lastName: string;
    email: string;
    phone: string;
    currency: string;
    balance: number;
  }[],
) {
  for (const client of clients) {
    const response = await page.request.post('/api/clients', { data: client });
    expect(response.status()).toBe(201);
  }
}

const rowNames = async (page: Page) =>
  (await clientRows(page).locator('td:first-child').allInnerTexts()).map((text) => text.trim());

test.describe('finding clients on the dashboard', () => {
  test('search, sort and filters agree with a hand count, live in the address bar and survive a reload', async ({
    page,
  }) => {
    await joinThroughApi(page);
    await seed(page, [
      {
        firstName: 'Ada',
        lastName: 'Lovelace',
        email: 'ada@engines.example',
        phone: '+44 20 7946 0018',
        currency: 'USD',
        balance: 12_345,
      },
      {
        firstName: 'Grace',
        lastName: 'Hopper',
        email: 'grace@navy.example',
        phone: '+1 202 555 0147',
        currency: 'USD',
        balance: -500,
      },
      {
        firstName: 'Min',
        lastName: 'Kim',
        email: 'min@seoul.example',
        phone: '010 1234 5678',
        currency: 'KRW',
        balance: 3_000_000,
      },
      {
        firstName: 'Siti',
        lastName: 'Aziz',
        email: 'siti@kl.example',
        phone: '+60 3 1234 5678',
        currency: 'MYR',
        balance: 5_000,
      },
    ]);
    await page.goto('/');
    await expect(page.getByRole('heading', { name: /Total Owed:/ })).toHaveText(
      'Total Owed: ₩3,000,000 · $118.45 · RM 50.00',
    );

    await page.getByRole('searchbox', { name: 'Search clients' }).fill('navy');
    await expect(page).toHaveURL(/\?q=navy$/);
    await expect.poll(() => rowNames(page)).toEqual(['Grace Hopper']);
    await expect(page.getByRole('heading', { name: /Total Owed:/ })).toHaveText(
      'Total Owed: -$5.00',
    );
    await expect(page.getByText('Totals of the 1 client matching the filter.')).toBeVisible();
    await page.reload();
    await expect(page.getByRole('searchbox', { name: 'Search clients' })).toHaveValue('navy');
    await expect.poll(() => rowNames(page)).toEqual(['Grace Hopper']);

    await page.getByRole('searchbox', { name: 'Search clients' }).fill('1234 5678');
    await expect(clientRows(page)).toHaveCount(2);
    await expect.poll(() => rowNames(page)).toEqual(['Min Kim', 'Siti Aziz']);
    await page.getByRole('link', { name: 'Clear the filter' }).click();
    await expect(clientRows(page)).toHaveCount(4);

    await page.getByLabel('Owes money').check();
    await expect(clientRows(page)).toHaveCount(3);
    await expect(page.getByRole('heading', { name: /Total Owed:/ })).toHaveText(
      'Total Owed: ₩3,000,000 · $123.45 · RM 50.00',
    );
    await page.getByLabel('Owes money').uncheck();
    await page.getByLabel('Currency').selectOption({ label: 'USD' });
    await expect(clientRows(page)).toHaveCount(2);
    await expect(page).toHaveURL(/currency=USD/);
    await page.getByLabel('Currency').selectOption({ label: 'All currencies' });

    await page.getByRole('button', { name: 'Balance' }).click();
    await expect(page).toHaveURL(/sort=balance/);
    await expect(page.getByRole('columnheader', { name: /Balance/ })).toHaveAttribute(
      'aria-sort',
      'ascending',
    );
    // Currencies by code, then amounts within each: KRW, MYR, then USD -5.00 before 123.45.
    await expect
      .poll(() => rowNames(page))
      .toEqual(['Min Kim', 'Siti Aziz', 'Grace Hopper', 'Ada Lovelace']);
    await page.getByRole('button', { name: 'Balance' }).click();
    await expect
      .poll(() => rowNames(page))
      .toEqual(['Ada Lovelace', 'Grace Hopper', 'Siti Aziz', 'Min Kim']);
  });

  test('a long list arrives a page at a time as the owner scrolls', async ({ page }) => {
    await joinThroughApi(page);
    await seed(
      page,
      Array.from({ length: 75 }, (_, i) => ({
        firstName: `Client${String(i).padStart(3, '0')}`,
        lastName: 'Many',
        email: `many${i}@example.com`,
        phone: '0123456789',
        currency: 'USD',
        balance: 100,
      })),
    );
    await page.goto('/');
    await expect(clientRows(page)).toHaveCount(50);
    await expect(page.getByRole('heading', { name: /Total Owed:/ })).toHaveText(
      'Total Owed: $75.00',
    );
    await clientRows(page).last().scrollIntoViewIfNeeded();
    await page.mouse.wheel(0, 5000);
    await expect(clientRows(page)).toHaveCount(75);
    await expect(page.getByRole('button', { name: /Load more/ })).toHaveCount(0);
  });
});

test.describe('on a phone @phone', () => {
  test('the dashboard fits the screen: name, balance, Details and the New button, nothing cut off', async ({
    page,
  }) => {
    await joinThroughApi(page);
    await seed(page, [
      {
        firstName: 'Bartholomew',
        lastName: 'Featherstonehaugh',
        email: 'bartholomew.featherstonehaugh@a-rather-long-domain.example',
        phone: '+44 20 7946 0018',
        currency: 'KRW',
        balance: 123_456_789,
      },
    ]);
    await page.goto('/');
    const row = page.getByRole('row', { name: /Bartholomew Featherstonehaugh/ });
    await expect(row).toContainText('₩123,456,789');
    await expect(page.getByRole('link', { name: 'New' })).toBeVisible();
    const id = (
      (await (await page.request.get('/api/clients')).json()) as { clients: { id: string }[] }
    ).clients[0]!.id;
    for (const width of [page.viewportSize()!.width, 390]) {
      await page.setViewportSize({ width, height: 844 });
      const details = row.getByRole('link', { name: 'Details', exact: true });
      await expect(details).toBeInViewport({ ratio: 1 });
      await expect(details).toHaveAttribute('href', `/client/${id}`);
      const overflow = await page.evaluate(
        () => document.documentElement.scrollWidth - window.innerWidth,
      );
      expect(overflow).toBeLessThanOrEqual(0);
      await page.screenshot({ path: `test-results/dashboard-phone-${width}.png` });
    }
  });
});
