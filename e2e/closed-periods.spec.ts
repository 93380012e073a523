import type { Page } from '@playwright/test';
import { expect, flash, joinThroughApi, password, test, uniqueEmail } from './fixtures.ts';

// Issue 59: the owner closes March; nothing dated in it changes, a void is put right by a
// correction dated today, and the owner sees who did what in the book's activity.

/** The last March that has ended, so its days are in the past whenever the test runs. */
const year = new Date().getMonth() >= 3 ? new Date().getFullYear() : new Date().getFullYear() - 1;
const lockDate = `${year}-03-31`;
const shown = (isoDay: string) =>
  new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeZone: 'UTC' }).format(
    new Date(`${isoDay}T00:00:00Z`),
  );

function localToday(): string {
  const date = new Date();
  const pad = (value: number) => String(value).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
}

const rows = (page: Page) => page.getByTestId('ledger-entry');
const row = (page: Page, text: string) => rows(page).filter({ hasText: text });

async function seedClient(page: Page): Promise<string> {
  const response = await page.request.post('/api/clients', {
    data: {
      firstName: 'Closed',
      lastName: 'Period',
      email: 'closed.period@example.com',
      phone: '0123456789',
      currency: 'USD',
      balance: 500_00,
    },
  });
  expect(response.status()).toBe(201);
  const { id } = (await response.json()) as { id: string };
  for (const data of [
    { kind: 'charge', amount: 300_00, date: `${year}-03-02`, note: 'March work' },
    { kind: 'payment', amount: 120_00, date: `${year}-03-15`, method: 'cash' },
  ]) {
    const entry = await page.request.post(`/api/clients/${id}/entries`, { data });
    expect(entry.status()).toBe(201);
  }
  return id;
}

async function openClient(page: Page, id: string, entries = 3) {
  await page.goto(`/client/${id}`);
  await expect(rows(page)).toHaveCount(entries);
}

test('a closed March refuses back-dated writes, a correction dated today puts an entry right, and the activity says who did what', async ({
  page,
  browser,
}) => {
  const ownerEmail = await joinThroughApi(page);
  const clientId = await seedClient(page);

  // Alone in the book: no word of who recorded what.
  await openClient(page, clientId);
  await expect(page.getByTestId('entered-by')).toHaveCount(0);
  await expect(page.getByTestId('history-by')).toHaveCount(0);

  // The owner closes March in Settings.
  await page.goto('/setting');
  const closing = page.getByRole('region', { name: 'Closed periods' });
  await expect(closing.getByText('No period is closed.')).toBeVisible();
  await closing.getByLabel('Books closed up to').fill(lockDate);
  await closing.getByRole('button', { name: 'Save closing date' }).click();
  await expect(flash(page, `Books closed up to ${shown(lockDate)}.`)).toBeVisible();
  await expect(closing.getByTestId('lock-date-now')).toHaveText(
    `The books are closed up to ${shown(lockDate)}.`,
  );

  // A payment dated in March is refused, the day named in the form.
  await openClient(page, clientId);
  await page.getByRole('button', { name: 'Record payment', exact: true }).click();
  const payment = page.getByRole('form', { name: 'Record payment' });
  await payment.getByLabel(/^Amount/).fill('50');
  await payment.getByLabel('Date', { exact: true }).fill(`${year}-03-20`);
  await payment.getByRole('button', { name: 'Record payment' }).click();
  await expect(payment.getByRole('alert')).toContainText(`The books are closed up to ${lockDate}`);
  await payment.getByRole('button', { name: 'Cancel' }).click();
  await expect(rows(page)).toHaveCount(3);

  // The March payment cannot be voided; a correction dated today is offered and recorded.
  await row(page, 'Payment')
    .getByRole('button', { name: /^Void payment/ })
    .click();
  const dialog = page.getByRole('dialog', { name: 'This entry cannot be voided' });
  await expect(dialog).toContainText(`The books are closed up to ${shown(lockDate)}`);
  await dialog.getByRole('button', { name: 'Record a correction dated today' }).click();
  const correction = page.getByRole('form', {
    name: `Correct the payment of ${shown(`${year}-03-15`)}`,
  });
  await expect(correction.getByLabel(/^Amount/)).toHaveValue('120.00');
  await expect(correction.getByLabel('Date', { exact: true })).toHaveValue(localToday());
  await correction.getByRole('button', { name: 'Record correction' }).click();
  await expect(flash(page, 'Correction recorded')).toBeVisible();
  await expect(rows(page)).toHaveCount(4);
  await expect(page.getByTestId('client-balance')).toHaveText('$800.00');
  await expect(row(page, 'Corrects the entry of').first()).toContainText(
    `Corrects the entry of ${shown(`${year}-03-15`)}`,
  );
  await expect(row(page, 'Corrects the entry of').first()).toContainText('Charge');
  await expect(row(page, 'Payment').first()).toContainText(`Corrected on ${shown(localToday())}`);
  // Put right once, the payment offers no void: that would reverse it a second time.
  await expect(row(page, 'Payment').first().getByRole('button', { name: /^Void/ })).toHaveCount(0);

  // The activity, reached from Settings, names the closing as the owner's.
  await page.goto('/setting');
  await page
    .getByRole('region', { name: 'Closed periods' })
    .getByRole('link', { name: "See the book's activity" })
    .click();
  await expect(page.getByRole('heading', { level: 1, name: 'Activity' })).toBeVisible();
  const events = page.getByTestId('activity-event');
  await expect(events.first()).toContainText('Recorded a charge of $120.00 for Closed Period');
  await expect(events.first()).toContainText(ownerEmail);
  await expect(
    events.filter({ hasText: `Closed the books up to ${shown(lockDate)}` }),
  ).toContainText(ownerEmail);

  // A bookkeeper joins: now each entry and change says who made it.
  const bookkeeperEmail = uniqueEmail('bookkeeper');
  const invited = await page.request.post('/api/book/invitations', {
    data: { email: bookkeeperEmail, role: 'bookkeeper' },
  });
  expect(invited.status()).toBe(201);
  const { path } = (await invited.json()) as { path: string };
  const context = await browser.newContext();
  const bookkeeper = await context.newPage();
  await bookkeeper.goto(path);
  await bookkeeper.getByLabel('Password').fill(password);
  await bookkeeper.getByRole('button', { name: 'Create account and join' }).click();
  await expect(bookkeeper).toHaveURL('/');

  await openClient(page, clientId, 4);
  await expect(row(page, 'March work')).toContainText(`by ${ownerEmail}`);
  await expect(page.getByTestId('history-by').first()).toHaveText(`by ${ownerEmail}`);

  // The bookkeeper cannot read the lock date: the server's refusal is what tells them.
  await openClient(bookkeeper, clientId, 4);
  await row(bookkeeper, 'March work')
    .getByRole('button', { name: /^Void charge/ })
    .click();
  const voiding = bookkeeper.getByRole('dialog', { name: 'Void entry?' });
  await voiding.getByPlaceholder('Reason').fill('Typed twice');
  await voiding.getByRole('button', { name: 'Void' }).click();
  const refused = bookkeeper.getByRole('dialog', { name: 'This entry cannot be voided' });
  await expect(refused).toContainText(`The books are closed up to ${lockDate}`);
  await expect(
    refused.getByRole('button', { name: 'Record a correction dated today' }),
  ).toBeVisible();
  await refused.getByRole('button', { name: 'Close' }).click();

  // The owner watches the activity while the bookkeeper works: their payment appears live.
  await page.goto('/setting/activity');
  await expect(events.filter({ hasText: 'Recorded a payment of $10.00' })).toHaveCount(0);
  await expect(events.first()).toBeVisible();
  await bookkeeper.getByRole('button', { name: 'Record payment', exact: true }).click();
  const theirs = bookkeeper.getByRole('form', { name: 'Record payment' });
  await theirs.getByLabel(/^Amount/).fill('10');
  await theirs.getByRole('button', { name: 'Record payment' }).click();
  await expect(flash(bookkeeper, 'Payment recorded')).toBeVisible();
  await expect(row(bookkeeper, '$10.00').first()).toContainText(`by ${bookkeeperEmail}`);
  await context.close();

  // Filtered by the bookkeeper, the activity shows their acts only.
  await expect(events.first()).toContainText('Recorded a payment of $10.00 for Closed Period');
  await page.getByLabel('Person').selectOption({ label: bookkeeperEmail });
  await expect(events.first()).toContainText('Recorded a payment of $10.00 for Closed Period');
  await expect(events.filter({ hasText: ownerEmail })).toHaveCount(0);
  for (const event of await events.all()) await expect(event).toContainText(bookkeeperEmail);
  await page.getByLabel('Person').selectOption({ label: 'Everyone' });
  await expect(events.filter({ hasText: ownerEmail }).first()).toBeVisible();
});
