import type { Page } from '@playwright/test';
import { expect, joinThroughApi, test } from './fixtures.ts';
import { seedTwelveClients } from './dashboard-seed.ts';

const figure = (page: Page, currency: string, term: string) =>
  page
    .getByTestId(`overview-${currency}`)
    .getByRole('term')
    .filter({ hasText: new RegExp(`^${term}$`) })
    .locator('xpath=following-sibling::dd');

test.describe('the dashboard answers who owes what', () => {
  for (const [width, height] of [
    [1280, 800],
    [375, 812],
  ] as const) {
    test(`the list's first row is on the first screen at ${width}×${height}`, async ({ page }) => {
      await page.setViewportSize({ width, height });
      await joinThroughApi(page);
      await seedTwelveClients(page);
      await page.goto('/');
      const firstRow = page.getByTestId('client-table').locator('tbody tr').first();
      await expect(firstRow).toContainText('Ada Lovelace');
      await expect(page.getByTestId('overview')).toBeVisible();
      const box = await firstRow.boundingBox();
      expect(box).not.toBeNull();
      expect(box!.y + box!.height).toBeLessThanOrEqual(height);
    });
  }

  test('a few Tabs reach the search, names open the client, long e-mails end in an ellipsis', async ({
    page,
  }) => {
    await page.setViewportSize({ width: 1280, height: 800 });
    await joinThroughApi(page);
    await seedTwelveClients(page);
    await page.goto('/');
    await expect(page.getByTestId('client-table')).toContainText('Zainab Hassan');
    const search = page.getByRole('searchbox', { name: 'Search clients' });
    let tabs = 0;
    while (tabs < 30 && !(await search.evaluate((node) => node === document.activeElement))) {
      await page.keyboard.press('Tab');
      tabs++;
    }
    expect(tabs).toBeLessThanOrEqual(12);

    const email = page.getByRole('link', {
      name: 'hiroshi.tanaka.accounts.payable.department@very-long-company-name.example.com',
    });
    await expect(email).toHaveAttribute('title', /^hiroshi\.tanaka\..*\.example\.com$/);
    const cut = (node: HTMLElement) =>
      node.scrollWidth > node.clientWidth && getComputedStyle(node).textOverflow === 'ellipsis';
    expect(await email.evaluate(cut)).toBe(true);
    await email.focus();
    expect(await email.evaluate(cut)).toBe(false);

    await page.getByRole('link', { name: 'Émilie Dubois' }).first().click();
    await expect(page.getByRole('heading', { level: 1, name: 'Émilie Dubois' })).toBeVisible();
  });

  test('SPEC §2: the table has Name, Email, Balance and a Details link to /client/{id} in every row', async ({
    page,
  }) => {
    await page.setViewportSize({ width: 1280, height: 800 });
    await joinThroughApi(page);
    await seedTwelveClients(page);
    const listed = await page.request.get('/api/clients?limit=50');
    expect(listed.status()).toBe(200);
    const ids = new Map(
      ((await listed.json()) as { clients: { id: string; email: string }[] }).clients.map(
        (client) => [client.email, client.id],
      ),
    );
    expect(ids.size).toBe(12);
    await page.goto('/');
    const table = page.getByTestId('client-table');
    const headers = table.getByRole('columnheader');
    for (const name of ['Name', 'Email', 'Balance', 'Details'])
      await expect(headers.filter({ hasText: new RegExp(`^${name}`) })).toBeVisible();
    const rows = table.locator('tbody tr');
    await expect(rows).toHaveCount(12);
    await expect(table.getByRole('link', { name: 'Details', exact: true })).toHaveCount(12);
    for (const row of await rows.all()) {
      const email = (await row.getByRole('link', { name: /@/ }).textContent())!.trim();
      const details = row.getByRole('link', { name: 'Details', exact: true });
      await expect(details).toBeVisible();
      await expect(details).toHaveText('Details');
      await expect(details).toHaveAttribute('href', `/client/${ids.get(email)}`);
    }
    // The Details column fits a laptop's width beside the others: nothing scrolls sideways.
    const overflow = await table.evaluate(
      (node) => node.parentElement!.scrollWidth - node.parentElement!.clientWidth,
    );
    expect(overflow).toBeLessThanOrEqual(0);
    await page.screenshot({ path: 'test-results/dashboard-details-1280.png' });

    await rows
      .filter({ hasText: 'Émilie Dubois' })
      .getByRole('link', { name: 'Details', exact: true })
      .click();
    await expect(page.getByRole('heading', { level: 1, name: 'Émilie Dubois' })).toBeVisible();
  });

  test('with credits and a filter, each summary follows it or says it does not', async ({
    page,
  }) => {
    await joinThroughApi(page);
    await seedTwelveClients(page);
    await page.goto('/');
    const totalOwed = page.getByRole('heading', { name: /Total Owed:/ });
    await expect(totalOwed).toContainText('CA$3,010.00');
    // One label, one meaning: the card's owed and credits make the same net as the strip.
    await expect(figure(page, 'CAD', 'Owed to you')).toHaveText('CA$3,160.00');
    await expect(figure(page, 'CAD', 'Credits held')).toHaveText('CA$150.00 1 client');
    await expect(figure(page, 'CAD', 'Total Owed')).toHaveText('CA$3,010.00');
    await expect(page.getByTestId('ageing')).toContainText('Owed to you');
    await expect(page.getByTestId('overview-not-filtered')).toHaveCount(0);
    await expect(page.getByTestId('ageing')).not.toContainText('do not apply');

    await page.getByRole('searchbox', { name: 'Search clients' }).fill('Grace');
    await expect(totalOwed).toContainText('Total Owed: -CA$150.00');
    await expect(totalOwed).not.toContainText('CA$3,010.00');
    await expect(page.getByText('Totals of the 1 client matching the filter.')).toBeVisible();
    await expect(page.getByTestId('ageing')).toContainText(
      'the search and filters do not apply to this table',
    );
    await expect(page.getByTestId('overview-not-filtered')).toHaveText(
      'These figures cover all clients: the search and filters apply to the list and its Total Owed only.',
    );
    await expect(figure(page, 'CAD', 'Owed to you')).toHaveText('CA$3,160.00');
  });

  test('colour means something outside the list: owed is neutral, overdue red, credits green', async ({
    page,
  }) => {
    await joinThroughApi(page);
    await seedTwelveClients(page);
    await page.goto('/');
    const colour = async (currency: string, term: string) =>
      figure(page, currency, term)
        .locator('span')
        .first()
        .evaluate((node) => getComputedStyle(node).color);
    const body = await page.locator('body').evaluate((node) => getComputedStyle(node).color);
    const red = await page
      .getByTestId('client-table')
      .locator('[data-balance="owes"]')
      .first()
      .evaluate((node) => getComputedStyle(node).color);
    const green = await page
      .getByTestId('client-table')
      .locator('[data-balance="credit"]')
      .first()
      .evaluate((node) => getComputedStyle(node).color);
    expect(await colour('CAD', 'Owed to you')).toBe(body);
    expect(await colour('CAD', 'Overdue')).toBe(red);
    expect(await colour('CAD', 'Credits held')).toBe(green);
    const debtors = page.getByTestId('largest-debtors');
    await expect(debtors).toContainText('Minjun Park');
    await expect(debtors).not.toContainText('OWES');
    await expect(debtors).toContainText(/at your rates of \d{4}-\d{2}-\d{2}\./);
    const digits = await page
      .getByTestId('client-table')
      .evaluate((node) => getComputedStyle(node).fontVariantNumeric);
    expect(digits).toBe('tabular-nums');
  });
});
