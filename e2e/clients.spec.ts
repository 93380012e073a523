import { writeFile } from 'node:fs/promises';
import type { Page } from '@playwright/test';
import { expect, flash, joinThroughApi, joinThroughForm, password, test } from './fixtures.ts';

interface NewClient {
  firstName: string;
  lastName: string;
  email: string;
  phone: string;
  balance: string;
  currency: 'KRW' | 'USD' | 'CAD' | 'RM';
}

const ada: NewClient = {
  firstName: 'Ada',
  lastName: 'Lovelace',
  email: 'ada+billing@analytical-engines.co.uk',
  phone: '+44 20 7946 0018',
  balance: '1,234.5',
  currency: 'USD',
};

async function fillClientForm(page: Page, client: Partial<NewClient>) {
  const fields: [keyof NewClient, string][] = [
    ['firstName', 'First name'],
    ['lastName', 'Last name'],
    ['email', 'Email'],
    ['phone', 'Phone'],
  ];
  for (const [key, label] of fields) {
    const value = client[key];
    if (value !== undefined) await page.getByLabel(label).fill(value);
  }
  if (client.currency) await page.getByLabel('Currency').selectOption({ label: client.currency });
  if (client.balance !== undefined) await page.getByLabel('Balance').fill(client.balance);
}

async function addClient(page: Page, client: NewClient) {
  await page.goto('/');
  await page.getByRole('link', { name: 'New' }).click();
  await fillClientForm(page, client);
  await page.getByRole('button', { name: 'Submit' }).click();
  await expect(page.getByText('New Client Added')).toBeVisible();
  await expect(page).toHaveURL('/');
}

test.describe('the client life cycle', () => {
  test('add, read, change the balance, edit and delete, with the messages of the specification', async ({
    page,
  }) => {
    // Waits out several 3-second flashes: on a busy machine it needs more than the default.
    test.slow();
    await joinThroughForm(page);
    await expect(page.getByText('No client added')).toBeVisible();
    const newButton = page.getByRole('link', { name: 'New' });
    await expect(newButton).toHaveClass(/btn-success/);
    await newButton.click();
    await expect(page).toHaveURL('/client/add');
    await expect(page.getByRole('heading', { name: 'Add Client' })).toBeVisible();
    await expect(page.getByLabel('Balance')).toHaveAttribute('placeholder', '0');
    await fillClientForm(page, ada);
    await page.getByRole('button', { name: 'Submit' }).click();
    await expect(flash(page, 'New Client Added')).toHaveClass(/bg-success/);
    await expect(page).toHaveURL('/');

    const row = page.getByRole('row', { name: /Ada Lovelace/ });
    await expect(row).toContainText('ada+billing@analytical-engines.co.uk');
    await expect(row).toContainText('$1,234.50');
    await expect(page.getByRole('heading', { name: /Total Owed:/ })).toHaveText(
      'Total Owed: $1,234.50',
    );

    await row.getByRole('link').first().click();
    await expect(page.getByRole('heading', { name: 'Ada Lovelace' })).toBeVisible();
    await expect(page.getByText(/^client id: [\w-]{22}$/)).toBeVisible();
    await expect(
      page.getByText('Contact Email: ada+billing@analytical-engines.co.uk'),
    ).toBeVisible();
    await expect(page.getByText('Contact Phone: +44 20 7946 0018')).toBeVisible();
    const balance = page.getByTestId('client-balance');
    await expect(balance).toHaveText('$1,234.50');
    // Red, and said in words too: the design system's owed colour.
    await expect(balance).toHaveCSS('color', 'rgb(180, 35, 24)');
    await expect(page.locator('[data-balance]')).toHaveText('$1,234.50 owes');
    await expect(page.getByText('Added with a balance of $1,234.50')).toBeVisible();

    await page.getByRole('button', { name: 'Edit balance' }).click();
    await page.getByLabel('New balance').fill('-20');
    await page.getByRole('button', { name: 'Update' }).click();
    await expect(flash(page, 'Client Updated')).toBeVisible();
    await expect(page).toHaveURL('/');
    await expect(row).toContainText('-$20.00');

    await row.getByRole('link').first().click();
    await expect(balance).toHaveText('-$20.00');
    await expect(balance).toHaveCSS('color', 'rgb(6, 118, 71)');
    await expect(page.locator('[data-balance]')).toHaveText('-$20.00 credit');
    // The balance set by hand is an adjustment in the ledger, and only there.
    const lastEntry = page.getByTestId('ledger-entry').last();
    await expect(lastEntry).toContainText('Adjustment');
    await expect(lastEntry).toContainText('-$1,254.50');
    await expect(page.getByText(/^Balance changed/)).toHaveCount(0);

    await page.getByRole('link', { name: 'Edit' }).click();
    await expect(page.getByRole('heading', { name: 'Edit Client' })).toBeVisible();
    await expect(page.getByLabel('First name')).toHaveValue('Ada');
    await expect(page.getByLabel('Balance')).toHaveValue('-20.00');
    await page.getByLabel('First name').fill('Augusta');
    await page.getByRole('button', { name: 'Submit' }).click();
    await expect(flash(page, 'Client Updated')).toBeVisible();
    await expect(page).toHaveURL('/');
    await page
      .getByRole('row', { name: /Augusta Lovelace/ })
      .getByRole('link')
      .first()
      .click();
    await expect(page.getByText('Edited: First name “Ada” → “Augusta”')).toBeVisible();

    // The modal closes with its Close button, with Esc and with the backdrop, and keeps the client.
    const dialog = page.getByRole('dialog', { name: 'Delete Augusta Lovelace?' });
    await page.getByRole('button', { name: 'Delete' }).click();
    await expect(dialog).toBeVisible();
    const box = await dialog.boundingBox();
    expect(box && [Math.round(box.width), Math.round(box.height)]).toEqual([300, 200]);
    await dialog.getByRole('button', { name: 'Close' }).click();
    await expect(dialog).toBeHidden();
    await page.getByRole('button', { name: 'Delete' }).click();
    await page.keyboard.press('Escape');
    await expect(dialog).toBeHidden();
    await page.getByRole('button', { name: 'Delete' }).click();
    await page.mouse.click(5, 5);
    await expect(dialog).toBeHidden();
    await expect(page.getByRole('heading', { name: 'Augusta Lovelace' })).toBeVisible();

    await page.getByRole('button', { name: 'Delete' }).click();
    // Focus stays inside while it is open.
    for (let i = 0; i < 4; i++) {
      await page.keyboard.press('Tab');
      expect(await dialog.evaluate((node) => node.contains(document.activeElement))).toBe(true);
    }
    await dialog.getByRole('button', { name: 'Delete' }).click();
    await expect(flash(page, 'Client Deleted')).toBeVisible();
    await expect(page).toHaveURL('/');
    await expect(page.getByText('No client added')).toBeVisible();
    // The flash is gone after 3 seconds.
    await expect(flash(page, 'Client Deleted')).toBeHidden({ timeout: 4500 });
  });

  test('every validation message shows once a field is touched, and nothing is sent while invalid', async ({
    page,
  }) => {
    await joinThroughApi(page);
    await page.goto('/client/add');
    const requests: string[] = [];
    page.on('request', (request) => {
      if (request.method() === 'POST' && request.url().includes('/api/clients'))
        requests.push(request.url());
    });
    for (const label of ['First name', 'Last name', 'Email', 'Phone']) {
      await page.getByLabel(label).focus();
      await page.getByLabel(label).blur();
    }
    await expect(page.getByText('first name required')).toBeVisible();
    await expect(page.getByText('last name required')).toBeVisible();
    await expect(page.getByText('email required')).toBeVisible();
    await expect(page.getByText('phone required')).toBeVisible();
    await expect(page.getByLabel('First name')).toHaveClass(/is-invalid/);

    await fillClientForm(page, {
      firstName: 'A',
      lastName: 'B',
      email: 'a@b',
      phone: '12345',
      balance: '1.234',
    });
    await page.getByLabel('Balance').blur();
    await expect(page.getByText('must be at least 2 characters')).toHaveCount(2);
    await expect(page.getByText('enter valid email')).toBeVisible();
    await expect(page.getByText('enter valid phone')).toBeVisible();
    await expect(page.getByText('Use at most 2 decimal places.')).toBeVisible();
    await page.getByLabel('Currency').selectOption({ label: 'KRW' });
    await page.getByLabel('Balance').fill('12.5');
    await page.getByLabel('Balance').blur();
    await expect(page.getByText('KRW has no decimal places.')).toBeVisible();
    await page.getByRole('button', { name: 'Submit' }).click();
    await expect(page).toHaveURL('/client/add');
    expect(requests).toEqual([]);
  });

  test('Total Owed shows one exact total per currency, never adding currencies together', async ({
    page,
  }) => {
    await joinThroughApi(page);
    await addClient(page, { ...ada, balance: '1,234.50' });
    await addClient(page, { ...ada, firstName: 'Bob', balance: '20', currency: 'USD' });
    await addClient(page, { ...ada, firstName: 'Min', balance: '3,000,000', currency: 'KRW' });
    await addClient(page, { ...ada, firstName: 'Siti', balance: '50', currency: 'RM' });
    await addClient(page, { ...ada, firstName: 'Chloe', balance: '', currency: 'CAD' });
    // Hand sums: USD 1,234.50 + 20 = 1,254.50; KRW 3,000,000; RM 50.00; CAD 0.
    await expect(page.getByRole('heading', { name: /Total Owed:/ })).toHaveText(
      'Total Owed: ₩3,000,000 · $1,254.50 · CA$0.00 · RM 50.00',
    );
    await expect(page.getByRole('row', { name: /Siti/ })).toContainText('RM 50.00');
    await expect(page.getByRole('row', { name: /Chloe/ })).toContainText('CA$0.00');
  });

  test('a failed add says "Adding Failed" and the form keeps what was typed', async ({ page }) => {
    await joinThroughApi(page);
    await page.goto('/client/add');
    await fillClientForm(page, ada);
    await page.route('**/api/clients', (route) =>
      route.request().method() === 'POST' ? route.abort() : route.fallback(),
    );
    await page.getByRole('button', { name: 'Submit' }).click();
    await expect(flash(page, 'Adding Failed')).toHaveClass(/bg-danger/);
    await expect(page).toHaveURL('/client/add');
    await expect(page.getByLabel('First name')).toHaveValue('Ada');
    await expect(page.getByLabel('Balance')).toHaveValue('1,234.5');
  });
});

test.describe('ownership', () => {
  test("a second owner gets nothing of the first one's clients, in the address bar or through the API", async ({
    browser,
  }) => {
    const first = await browser.newPage();
    await joinThroughApi(first);
    await addClient(first, ada);
    await first
      .getByRole('row', { name: /Ada Lovelace/ })
      .getByRole('link')
      .first()
      .click();
    await expect(first).toHaveURL(/\/client\/[\w-]{22}$/);
    const id = first.url().split('/client/')[1] ?? '';
    expect(id).toMatch(/^[\w-]{22}$/);

    const second = await browser.newPage();
    await joinThroughApi(second);
    await second.goto('/');
    await expect(second.getByText('No client added')).toBeVisible();
    await second.goto(`/client/${id}`);
    await expect(second.getByRole('heading', { name: 'Client not found' })).toBeVisible();
    await second.goto(`/client/edit/${id}`);
    await expect(second.getByRole('heading', { name: 'Client not found' })).toBeVisible();
    for (const [method, url] of [
      ['GET', `/api/clients/${id}`],
      ['GET', `/api/clients/${id}/history`],
      ['PATCH', `/api/clients/${id}/balance`],
      ['DELETE', `/api/clients/${id}`],
    ] as const) {
      const response = await second.request.fetch(url, {
        method,
        data: method === 'PATCH' ? { balance: 0, version: 1 } : undefined,
      });
      expect(response.status(), `${method} ${url}`).toBe(404);
    }
    await first.reload();
    await expect(first.getByTestId('client-balance')).toHaveText('$1,234.50');
    await first.close();
    await second.close();
  });
});

test.describe('two tabs editing one client', () => {
  test('the later edit gets a conflict and the current values, and neither edit is lost silently', async ({
    context,
  }) => {
    const tabA = await context.newPage();
    await joinThroughApi(tabA);
    await addClient(tabA, ada);
    await tabA
      .getByRole('row', { name: /Ada Lovelace/ })
      .getByRole('link')
      .first()
      .click();
    await expect(tabA).toHaveURL(/\/client\/[\w-]{22}$/);
    const editUrl = tabA.url().replace('/client/', '/client/edit/');
    const tabB = await context.newPage();
    await tabA.goto(editUrl);
    await tabB.goto(editUrl);
    await expect(tabB.getByLabel('First name')).toHaveValue('Ada');

    await tabA.getByLabel('First name').fill('Augusta');
    await tabA.getByRole('button', { name: 'Submit' }).click();
    await expect(flash(tabA, 'Client Updated')).toBeVisible();

    await tabB.getByLabel('Phone').fill('+1 555 010 2030');
    // The live stream tells tab B at once, without wiping what it is typing.
    await expect(tabB.getByText('This client has just been changed elsewhere.')).toBeVisible();
    await expect(tabB.getByLabel('Phone')).toHaveValue('+1 555 010 2030');
    await tabB.getByRole('button', { name: 'Submit' }).click();
    await expect(flash(tabB, 'Updating Failed')).toBeVisible();
    await expect(tabB.getByRole('alert').filter({ hasText: 'changed elsewhere' })).toBeVisible();
    await expect(tabB.getByLabel('First name')).toHaveValue('Augusta');
    await expect(tabB.getByLabel('Phone')).toHaveValue('+44 20 7946 0018');
    // Made again on the current values, the change goes through and keeps the other tab's.
    await tabB.getByLabel('Phone').fill('+1 555 010 2030');
    await tabB.getByRole('button', { name: 'Submit' }).click();
    await expect(flash(tabB, 'Client Updated')).toBeVisible();
    await tabB
      .getByRole('row', { name: /Augusta Lovelace/ })
      .getByRole('link')
      .first()
      .click();
    await expect(tabB.getByText('Contact Phone: +1 555 010 2030')).toBeVisible();
  });
});

test.describe('guarded routes', () => {
  for (const path of [
    '/client/add',
    '/client/edit/AAAAAAAAAAAAAAAAAAAAAA',
    '/client/AAAAAAAAAAAAAAAAAAAAAA',
  ]) {
    test(`${path} sends a visitor to /login and back after login`, async ({ page }) => {
      const email = await joinThroughApi(page);
      await page.request.post('/api/auth/logout');
      await page.goto(path);
      await expect(page).toHaveURL(`/login?next=${encodeURIComponent(path)}`);
      await page.getByLabel('Email').fill(email);
      await page.getByLabel('Password').fill(password);
      await page.getByRole('button', { name: 'Submit' }).click();
      await expect(page).toHaveURL(path);
    });
  }

  test('a session that ends while the app is open leads to /login with a message', async ({
    page,
    playwright,
  }) => {
    await joinThroughApi(page);
    await page.goto('/client/add');
    await expect(page.getByLabel('First name')).toBeVisible();
    const cookie = (await page.context().cookies()).find((c) => c.name === 'balance_session');
    // The session ends on the server, as when the idle limit passes or another tab logs out.
    const elsewhere = await playwright.request.newContext({ baseURL: page.url() });
    await elsewhere.post('/api/auth/logout', {
      headers: { cookie: `balance_session=${cookie?.value}` },
    });
    await elsewhere.dispose();
    // The page's live stream is told at once; without it, the next API call's 401 would be.
    await expect(page).toHaveURL('/login?next=%2Fclient%2Fadd');
    await expect(flash(page, 'Your session has ended. Please log in again.')).toBeVisible();
  });

  test('without a live stream, the first refused request leads to /login with the same message', async ({
    page,
    playwright,
  }) => {
    await page.route('**/api/events*', (route) => route.abort());
    await joinThroughApi(page);
    await page.goto('/client/add');
    await expect(page.getByLabel('First name')).toBeVisible();
    const cookie = (await page.context().cookies()).find((c) => c.name === 'balance_session');
    const elsewhere = await playwright.request.newContext({ baseURL: page.url() });
    await elsewhere.post('/api/auth/logout', {
      headers: { cookie: `balance_session=${cookie?.value}` },
    });
    await elsewhere.dispose();
    await fillClientForm(page, ada);
    await page.getByRole('button', { name: 'Submit' }).click();
    await expect(page).toHaveURL('/login?next=%2Fclient%2Fadd');
    await expect(flash(page, 'Your session has ended. Please log in again.')).toBeVisible();
  });
});

test('a balance added with the client is an opening balance as of its day, due when it says', async ({
  page,
}) => {
  await joinThroughApi(page);
  await page.goto('/client/add');
  await fillClientForm(page, { ...ada, balance: '500' });
  await page.getByLabel('As of').fill('2026-01-15');
  await page.getByLabel('Due date (optional)').fill('2026-02-14');
  await page.getByLabel('Reference (optional)').fill('B/F 2025');
  await page.screenshot({ path: 'test-results/add-client-opening.png', fullPage: true });
  await page.setViewportSize({ width: 375, height: 800 });
  await page.screenshot({ path: 'test-results/add-client-opening-375.png', fullPage: true });
  await page.getByRole('button', { name: 'Submit' }).click();
  await expect(page.getByText('New Client Added')).toBeVisible();
  await page
    .getByTestId('client-table')
    .getByRole('link', { name: /Ada Lovelace/ })
    .click();
  await expect(page.getByText(/Opening balance · B\/F 2025 · due/)).toBeVisible();
});

test('a client that is a business: its company on the form, the list, its page and its statement', async ({
  page,
}, testInfo) => {
  await joinThroughApi(page);
  await page.goto('/client/add');
  // A person's form stays short: the business group is closed until the owner opens it.
  const group = page.getByText('Business details (optional)');
  await expect(group).toBeVisible();
  await expect(page.getByLabel('Company name')).toBeHidden();
  await fillClientForm(page, {
    firstName: 'Mei Ling',
    lastName: 'Wong',
    email: 'ap@hanbit-trading.example.my',
    phone: '+60 3 2123 4567',
    balance: '1,500',
    currency: 'RM',
  });
  await group.click();
  await page.getByLabel('Company name').fill('Hanbit Trading Sdn Bhd');
  await page.getByLabel('Address line 1').fill('Lot 5, Jalan Ampang');
  await page.getByLabel('City').fill('Kuala Lumpur');
  await page.getByLabel('Postcode').fill('50450');
  await page.getByLabel('Country').fill('Malaysia');
  await page.getByLabel('Tax ID').fill('C2584563202');
  await page.getByLabel('Private notes').fill('x'.repeat(2001));
  await page.getByLabel('Company name').focus();
  await expect(page.getByText('Use at most 2000 characters.')).toBeVisible();
  // The message's render leaves the group open, with what was typed.
  await expect(page.getByLabel('Company name')).toHaveValue('Hanbit Trading Sdn Bhd');
  await expect(page.getByLabel('Company name')).toBeVisible();
  await page.getByLabel('Private notes').fill('Pays by cheque.\nCall Mei Ling first.');
  await page.setViewportSize({ width: 390, height: 844 });
  await page.screenshot({ path: testInfo.outputPath('add-business-390.png'), fullPage: true });
  await page.getByRole('button', { name: 'Submit' }).click();
  await expect(page.getByText('New Client Added')).toBeVisible();

  // On the list by its company, its contact person under it, and found by either.
  const table = page.getByTestId('client-table');
  const row = table.getByRole('row', { name: /Hanbit Trading Sdn Bhd/ });
  await expect(row).toContainText('Mei Ling Wong');
  await page.getByRole('searchbox', { name: 'Search clients' }).fill('hanbit');
  await expect(page).toHaveURL(/q=hanbit/);
  await expect(table.getByRole('link', { name: 'Hanbit Trading Sdn Bhd' })).toBeVisible();
  await page.getByRole('searchbox', { name: 'Search clients' }).fill('mei ling');
  await expect(page).toHaveURL(/q=mei\+ling/);
  await expect(page.getByText('Totals of the 1 client matching the filter.')).toBeVisible();
  await expect(table.getByRole('link', { name: 'Hanbit Trading Sdn Bhd' })).toBeVisible();

  await table.getByRole('link', { name: 'Hanbit Trading Sdn Bhd' }).click();
  await expect(page).toHaveURL(/\/client\/[\w-]+$/);
  await expect(page.getByRole('heading', { name: 'Hanbit Trading Sdn Bhd' })).toBeVisible();
  await expect(page.getByText('Contact person: Mei Ling Wong')).toBeVisible();
  await expect(page.getByTestId('client-address')).toHaveText(
    'Lot 5, Jalan Ampang50450 Kuala LumpurMalaysia',
  );
  await expect(page.getByText('Tax ID: C2584563202')).toBeVisible();
  await expect(page.getByTestId('client-notes')).toHaveText(
    'Pays by cheque.\nCall Mei Ling first.',
  );
  await page.screenshot({ path: testInfo.outputPath('business-details-390.png'), fullPage: true });

  await page.getByRole('link', { name: 'Statement' }).click();
  const to = page.getByTestId('statement-to');
  await expect(to).toContainText('Hanbit Trading Sdn Bhd');
  await expect(to).toContainText('Mei Ling Wong');
  await expect(to).toContainText('Lot 5, Jalan Ampang');
  await expect(to).toContainText('50450 Kuala Lumpur');
  await expect(to).toContainText('Tax ID: C2584563202');
  // The notes are the owner's: nowhere on what the client receives.
  await expect(page.getByText('Pays by cheque')).toHaveCount(0);
  await page.screenshot({
    path: testInfo.outputPath('business-statement-390.png'),
    fullPage: true,
  });
  await page.setViewportSize({ width: 1100, height: 900 });
  await page.screenshot({ path: testInfo.outputPath('business-statement.png'), fullPage: true });
  const id = /\/client\/([\w-]+)\/statement/.exec(page.url())?.[1] ?? '';
  for (const lang of ['en', 'ko', 'ms']) {
    const pdf = await page.request.get(`/api/clients/${id}/statement.pdf?lang=${lang}`);
    expect(pdf.status()).toBe(200);
    await writeFile(testInfo.outputPath(`business-statement-${lang}.pdf`), await pdf.body());
  }
});
