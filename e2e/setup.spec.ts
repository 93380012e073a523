import type { Page } from '@playwright/test';
import {
  clientCount,
  expect,
  joinThroughApi,
  joinThroughForm,
  logIn,
  test,
  uniqueEmail,
} from './fixtures.ts';

const totalOwed = (page: Page) => page.getByTestId('total-owed');

test.describe('the first run', () => {
  test('sign up, set the business up by keyboard, and the empty dashboard speaks its currency', async ({
    page,
    browser,
  }) => {
    const email = await joinThroughForm(page, uniqueEmail('setup'), { setup: 'stay' });
    await expect(
      page.getByRole('heading', { level: 1, name: 'Set up your business' }),
    ).toBeVisible();
    await page.getByLabel('Business name').fill('Kim Trading');
    // Printed on statements; both may be left empty.
    await page.getByLabel('Business address (optional)').fill('110 Sejong-daero\nSeoul 04524');
    await page.getByLabel('Tax ID (optional)').fill('123-45-67890');
    await page.getByLabel('Main currency').selectOption({ label: 'KRW' });
    await page.getByLabel('Payment details (optional)').fill('Shinhan 110-123-456789');
    // Reminders are paused until the owner says so; the plan they would follow is told.
    const reminders = page.getByRole('switch', {
      name: 'Send payment reminders to clients who owe you',
    });
    await expect(reminders).not.toBeChecked();
    await expect(reminders).toHaveAccessibleDescription(
      'They follow this plan: 3 days before the due date, on the due date, and every 7 days while overdue (up to 3 times). You can change the days in Settings.',
    );
    await reminders.press('Space');
    await expect(reminders).toBeChecked();
    // Enter in a field sends the form, as in any form.
    await page.getByLabel('Business name').press('Enter');

    await expect(page).toHaveURL('/');
    await expect(totalOwed(page)).toHaveText(/^Total Owed: ₩0/);
    await expect(page.getByText('No client added')).toBeVisible();
    await expect(page.getByTestId('first-clients')).toHaveText(
      'To begin, add a client with New, or bring your list from a spreadsheet with Import CSV.',
    );
    // A new client starts in the main currency.
    await page.getByRole('link', { name: 'New' }).click();
    await expect(page.getByLabel('Currency')).toHaveValue('KRW');

    await page.goto('/setting');
    await expect(page.getByLabel('Business name')).toHaveValue('Kim Trading');
    await expect(page.getByLabel('Business address')).toHaveValue('110 Sejong-daero\nSeoul 04524');
    await expect(page.getByLabel('Tax ID')).toHaveValue('123-45-67890');
    await expect(
      page
        .getByRole('region', { name: 'Payment reminders' })
        .getByRole('switch', { name: 'Send reminders' }),
    ).toBeChecked();
    await expect(page.getByLabel('Main currency')).toHaveValue('KRW');
    await expect(page.getByLabel('Payment details')).toHaveValue('Shinhan 110-123-456789');

    // Done is remembered on the server: another device goes straight to the dashboard.
    const other = await browser.newPage();
    await logIn(other, email);
    await other.goto('/');
    await expect(other.getByRole('heading', { level: 1, name: 'Clients' })).toBeVisible();
    await expect(totalOwed(other)).toHaveText(/^Total Owed: ₩0/);
    await other.goto('/setup');
    await expect(other).toHaveURL('/');
    await other.close();
  });

  test('skipped, it is not offered again and the dashboard stays in US dollars', async ({
    page,
  }) => {
    await joinThroughForm(page, uniqueEmail('skip'), { setup: 'stay' });
    await page.getByRole('button', { name: 'Skip for now' }).click();
    await expect(page).toHaveURL('/');
    await expect(totalOwed(page)).toHaveText(/^Total Owed: \$0\.00/);
    await page.reload();
    await expect(page.getByRole('heading', { level: 1, name: 'Clients' })).toBeVisible();
    await expect(page).toHaveURL('/');
    const session = (await (await page.request.get('/api/auth/session')).json()) as object;
    expect(session).toMatchObject({ firstRun: { mainCurrency: 'USD', setupNeeded: false } });
  });

  test('an owner who already has clients is never sent to it', async ({ page }) => {
    await joinThroughApi(page, uniqueEmail('has-clients'), { setup: 'stay' });
    const added = await page.request.post('/api/clients', {
      data: {
        firstName: 'Ada',
        lastName: 'Lovelace',
        email: 'ada@example.com',
        phone: '0123456789',
        currency: 'CAD',
        balance: 1000,
      },
    });
    expect(added.status()).toBe(201);
    expect(await clientCount(page)).toBe(1);
    await page.goto('/');
    await expect(page.getByRole('heading', { level: 1, name: 'Clients' })).toBeVisible();
    await expect(page).toHaveURL('/');
    await page.goto('/setup');
    await expect(page).toHaveURL('/');
  });

  test('an owner who adds a client instead of setting up is not sent back to it', async ({
    page,
  }) => {
    await joinThroughForm(page, uniqueEmail('adds-first'), { setup: 'stay' });
    await page.goto('/client/add');
    await page.getByLabel('First name').fill('Ada');
    await page.getByLabel('Last name').fill('Lovelace');
    await page.getByLabel('Email').fill('ada@example.com');
    await page.getByLabel('Phone').fill('0123456789');
    await page.getByRole('button', { name: 'Submit' }).click();
    await expect(page).toHaveURL('/');
    await expect(page.getByRole('link', { name: 'Ada Lovelace' })).toBeVisible();
  });
});

test('Settings is in sections, each setting explained and each button named for what it does', async ({
  page,
}) => {
  await joinThroughApi(page);
  await page.goto('/setting');
  for (const name of ['Business', 'Money and rates', 'Your data', 'API tokens']) {
    await expect(page.getByRole('region', { name })).toBeVisible();
  }
  // Only the administrator (the instance's first account) has the Registration section.
  await expect(page.getByRole('region', { name: 'Registration' })).toHaveCount(0);

  const business = page.getByRole('region', { name: 'Business' });
  await expect(business.getByRole('button', { name: 'Save business details' })).toBeVisible();
  await expect(business.getByLabel('Main currency')).toHaveAccessibleDescription(
    /New clients start in this currency/,
  );
  await expect(business.getByLabel('Language')).toBeVisible();

  const money = page.getByRole('region', { name: 'Money and rates' });
  await expect(money.getByRole('button', { name: 'Save money and rates' })).toBeVisible();
  await expect(money.getByLabel('Disable balance on add')).toHaveAccessibleDescription(
    /New clients start at 0/,
  );
  await expect(money.getByLabel('Disable balance on edit')).toHaveAccessibleDescription(
    /Editing a client cannot change the balance/,
  );
  // Rates read as banks quote them, 1 USD = 1,333 KRW: so do their examples.
  await expect(money.getByLabel('KRW per 1 US dollar')).toHaveAttribute(
    'placeholder',
    'e.g. 1,333',
  );
  await expect(money.getByLabel('CAD per 1 US dollar')).toHaveAttribute('placeholder', 'e.g. 1.37');
  await expect(page.getByRole('button', { name: 'Submit' })).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Save', exact: true })).toHaveCount(0);

  // A section saves alone: the business details leave the rates as they were.
  await money.getByLabel('KRW per 1 US dollar').fill('1,250');
  await money.getByRole('button', { name: 'Save money and rates' }).click();
  await expect(page.locator('.flash-bar').getByText('Setting has been updated')).toBeVisible();
  await business.getByLabel('Business name').fill('Kedai Ali');
  await business.getByLabel('Main currency').selectOption({ label: 'RM' });
  await business.getByRole('button', { name: 'Save business details' }).click();
  await expect(
    page.locator('.flash-bar').getByText('Setting has been updated').last(),
  ).toBeVisible();
  await expect
    .poll(async () => (await (await page.request.get('/api/settings')).json()) as object)
    .toMatchObject({
      business: { name: 'Kedai Ali', mainCurrency: 'MYR' },
      // Stored as dollars per won, as rates always were.
      rates: [{ currency: 'KRW', usdPerUnit: '0.0008' }],
    });
});
