import type { Page } from '@playwright/test';
import { expect, flash, joinThroughApi, test } from './fixtures.ts';

const today = new Date().toISOString().slice(0, 10);

/** The 10th of the month `back` months before this one (UTC), as YYYY-MM-DD. */
function tenthOf(back: number): string {
  const date = new Date(`${today.slice(0, 7)}-10T00:00:00Z`);
  date.setUTCMonth(date.getUTCMonth() - back);
  return date.toISOString().slice(0, 10);
}
const monthName = (day: string) =>
  new Intl.DateTimeFormat('en-US', { month: 'short', year: 'numeric', timeZone: 'UTC' }).format(
    new Date(`${day}T00:00:00Z`),
  );

async function addClient(
  page: Page,
  firstName: string,
  balance: number,
  currency: 'USD' | 'KRW',
): Promise<string> {
  const response = await page.request.post('/api/clients', {
    data: {
      firstName,
      lastName: 'Overview',
      email: `${firstName.toLowerCase()}.${Date.now()}@example.com`,
      phone: '0123456789',
      balance,
      currency,
    },
  });
  expect(response.status()).toBe(201);
  return ((await response.json()) as { id: string }).id;
}

async function addEntry(page: Page, id: string, data: object) {
  const response = await page.request.post(`/api/clients/${id}/entries`, { data });
  expect(response.status()).toBe(201);
}

/**
 * Ada (USD) was charged 1,000.00 fourteen months ago and 500.00 five months ago, and paid 300.00
 * two months ago; Bob (USD) holds a credit of 25.00; Min owes ₩5,000,000 from today.
 */
async function seed(page: Page): Promise<string> {
  await joinThroughApi(page);
  const ada = await addClient(page, 'Ada', 0, 'USD');
  await addEntry(page, ada, { kind: 'charge', amount: 100_000, date: tenthOf(14) });
  await addEntry(page, ada, { kind: 'charge', amount: 50_000, date: tenthOf(5) });
  await addEntry(page, ada, { kind: 'payment', amount: 30_000, date: tenthOf(2) });
  await addClient(page, 'Bob', -2_500, 'USD');
  await addClient(page, 'Min', 5_000_000, 'KRW');
  return ada;
}

const figure = (page: Page, currency: string, term: string) =>
  page
    .getByTestId(`overview-${currency}`)
    .getByRole('term')
    .filter({ hasText: term })
    .locator('xpath=following-sibling::dd');

test.describe('the dashboard overview', () => {
  test('shows what is owed, overdue and held per currency, the largest debtors and the charts as tables', async ({
    page,
  }) => {
    // The charts draw on canvases the content security policy must allow: nothing is refused.
    const consoleErrors: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error') consoleErrors.push(message.text());
    });
    const ada = await seed(page);
    await page.goto('/');
    await expect(page.getByRole('heading', { name: 'Overview' })).toBeVisible();
    await expect(figure(page, 'USD', 'Owed to you')).toHaveText('$1,200.00');
    await expect(figure(page, 'USD', 'Clients owing')).toHaveText('1');
    await expect(figure(page, 'USD', 'Overdue')).toHaveText('$1,200.00 1 client');
    await expect(figure(page, 'USD', 'Credits held')).toHaveText('$25.00 1 client');
    await expect(figure(page, 'KRW', 'Owed to you')).toHaveText('₩5,000,000');
    await expect(figure(page, 'KRW', 'Overdue')).toHaveText('₩0');
    // The SPEC's line stays, exact per currency.
    await expect(page.getByRole('heading', { name: /Total Owed:/ })).toHaveText(
      'Total Owed: ₩5,000,000 · $1,175.00',
    );

    const debtors = page.getByTestId('largest-debtors');
    await expect(debtors).toContainText('The five largest in each currency');
    await expect(debtors.getByRole('listitem')).toHaveText([
      /Min Overview\s*₩5,000,000/,
      /Ada Overview\s*\$1,200\.00/,
    ]);

    // The charts, one currency at a time, each described for a screen reader.
    const charts = page.getByTestId('overview-charts');
    await expect(
      charts.getByRole('img', { name: /^Line chart of the total owed in KRW/ }),
    ).toBeVisible();
    await page.getByLabel('Charts in').selectOption('USD');
    await expect(
      charts.getByRole('img', { name: /^Line chart of the total owed in USD.*now \$1,175\.00$/ }),
    ).toBeVisible();
    await expect(
      charts.getByRole('img', { name: 'Bar chart of what is owed in USD by days overdue' }),
    ).toBeVisible();

    // The text alternative: real tables of every currency.
    await charts.getByRole('button', { name: 'Show as table' }).click();
    await expect(charts.getByRole('img')).toHaveCount(0);
    const history = charts.getByRole('table', { name: 'Total owed at each month end' });
    await expect(history.getByRole('row')).toHaveCount(13);
    await expect(history.getByRole('row').first()).toHaveText(/Month end\s*KRW\s*USD/);
    const monthRow = (back: number) =>
      history.getByRole('row', {
        name: new RegExp(`^${monthName(tenthOf(back))}${back === 0 ? ' \\(to date\\)' : ' '}`),
      });
    await expect(monthRow(11)).toHaveText(/₩0\s*\$1,000\.00/);
    await expect(monthRow(5)).toHaveText(/₩0\s*\$1,500\.00/);
    await expect(monthRow(2)).toHaveText(/₩0\s*\$1,200\.00/);
    await expect(monthRow(0)).toHaveText(/₩5,000,000\s*\$1,175\.00/);
    const ageing = charts.getByRole('table', { name: /^Ageing of what is owed/ });
    await expect(ageing.getByRole('row', { name: /^90\+ days/ })).toHaveText(/₩0\s*\$1,200\.00/);
    await expect(ageing.getByRole('row', { name: /^Current/ })).toHaveText(/₩5,000,000\s*\$0\.00/);

    expect(consoleErrors).toEqual([]);

    // Each debtor leads to its client.
    await debtors.getByRole('link', { name: 'Ada Overview' }).click();
    await expect(page).toHaveURL(`/client/${ada}`);
  });

  test('a balance changed in this tab shows in the figures at once, without the live stream', async ({
    page,
  }) => {
    // The live stream refused: only the change's own refresh can bring the figures up to date.
    await page.route('**/api/events**', (route) => route.abort());
    await seed(page);
    await page.goto('/');
    await expect(figure(page, 'USD', 'Owed to you')).toHaveText('$1,200.00');
    await expect(figure(page, 'USD', 'Clients owing')).toHaveText('1');

    await page
      .getByRole('row', { name: /Bob Overview/ })
      .getByRole('link')
      .first()
      .click();
    await page.getByRole('button', { name: 'Edit balance' }).click();
    await page.getByLabel('New balance').fill('300');
    await page.getByRole('button', { name: 'Update' }).click();
    await expect(flash(page, 'Client Updated')).toBeVisible();
    await expect(page).toHaveURL('/');
    // Well within the 30 s a query's answer is kept: these come from a new request.
    await expect(figure(page, 'USD', 'Owed to you')).toHaveText('$1,500.00');
    await expect(figure(page, 'USD', 'Clients owing')).toHaveText('2');
  });

  test('a payment recorded in another tab updates the figures and the tables', async ({
    context,
  }) => {
    const watcher = await context.newPage();
    const ada = await seed(watcher);
    await watcher.goto('/');
    const charts = watcher.getByTestId('overview-charts');
    await charts.getByRole('button', { name: 'Show as table' }).click();
    const thisMonth = charts
      .getByRole('table', { name: 'Total owed at each month end' })
      .getByRole('row', { name: /\(to date\)/ });
    await expect(thisMonth).toHaveText(/\$1,175\.00/);

    const actor = await context.newPage();
    await actor.goto(`/client/${ada}`);
    await actor.getByRole('button', { name: 'Record payment', exact: true }).first().click();
    const form = actor.getByRole('form', { name: 'Record payment' });
    await form.getByLabel(/^Amount/).fill('200');
    await form.getByRole('button', { name: 'Record payment' }).click();
    await expect(flash(actor, 'Payment recorded')).toBeVisible();

    await expect(figure(watcher, 'USD', 'Owed to you')).toHaveText('$1,000.00');
    await expect(figure(watcher, 'USD', 'Overdue')).toHaveText('$1,000.00 1 client');
    await expect(thisMonth).toHaveText(/\$975\.00/);
    await expect(
      charts
        .getByRole('table', { name: /^Ageing of what is owed/ })
        .getByRole('row', { name: /^90\+ days/ }),
    ).toHaveText(/\$1,000\.00/);
  });

  test('fits a phone screen without scrolling sideways', async ({ page }, testInfo) => {
    await seed(page);
    for (const width of [1280, 375]) {
      await page.setViewportSize({ width, height: 900 });
      await page.goto('/');
      // The chart library is a chunk of its own; a busy machine may take a while to bring it.
      await expect(page.getByTestId('overview-charts').getByRole('img').first()).toBeVisible({
        timeout: 15_000,
      });
      await page.screenshot({
        path: testInfo.outputPath(`dashboard-${width}.png`),
        fullPage: true,
      });
      const overflow = await page.evaluate(
        () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
      );
      expect(overflow, `the page scrolls sideways at ${width} px`).toBe(0);
    }
  });

  test('the charts are drawn again in the new colours when the system turns dark mode on', async ({
    page,
  }) => {
    await page.emulateMedia({ colorScheme: 'light' });
    await seed(page);
    await page.goto('/');
    const chart = page.getByTestId('overview-charts').getByRole('img').first();
    await expect(chart).toBeVisible({ timeout: 15_000 });
    const pixels = () =>
      chart.evaluate((canvas) => (canvas as HTMLCanvasElement).toDataURL('image/png'));
    const light = await pixels();

    await page.emulateMedia({ colorScheme: 'dark' });
    await expect(page.locator('html')).toHaveAttribute('data-bs-theme', 'dark');
    // A canvas keeps what it was drawn with: only a new drawing shows the dark palette.
    await expect.poll(pixels).not.toBe(light);
  });
});

test('charts whose code could not be fetched (a network blip) are fetched again, and the dashboard stays', async ({
  page,
}) => {
  await seed(page);
  // The first request for the charts' code fails as a dropped connection would.
  let refused = 0;
  await page.route(/\/assets\/overview-charts-[^/]*\.js$/, async (route) => {
    if (refused === 0) {
      refused += 1;
      await route.abort('connectionreset');
    } else {
      await route.continue();
    }
  });
  await page.goto('/');
  await expect(page.getByRole('heading', { level: 1, name: 'Clients' })).toBeVisible();
  await expect(page.getByTestId('overview-charts').getByRole('img')).toHaveCount(2, {
    timeout: 15_000,
  });
  expect(refused).toBe(1);
  await expect(page.getByText('Could not load this page')).toHaveCount(0);
});

test('the charts arriving do not move the client list', async ({ page }) => {
  await seed(page);
  // The charts' code arrives well after the list, as on a slow connection.
  await page.route(/\/assets\/overview-charts-[^/]*\.js$/, async (route) => {
    await new Promise((resolve) => setTimeout(resolve, 1500));
    await route.continue();
  });
  await page.goto('/');
  const table = page.getByRole('table', { name: 'Clients' });
  await expect(table.getByRole('row', { name: /Ada Overview/ })).toBeVisible();
  // Measured while the charts are still on their way.
  await expect(page.getByTestId('overview-charts')).toHaveCount(0);
  const before = await table.boundingBox();
  await expect(page.getByTestId('overview-charts').getByRole('img')).toHaveCount(2);
  const after = await table.boundingBox();
  expect(Math.abs((after?.y ?? 0) - (before?.y ?? 0))).toBeLessThanOrEqual(2);
});
