import { readFile } from 'node:fs/promises';
import type { Page } from '@playwright/test';
import { clientCount, expect, flash, joinThroughApi, test } from './fixtures.ts';

const restoreProblem = (page: Page) =>
  page.getByRole('region', { name: 'Restore from an export file' }).getByRole('alert');

test('download all my data, restore it into a new account from Settings, and not twice', async ({
  page,
}) => {
  await joinThroughApi(page);
  const ids: string[] = [];
  for (const data of [
    {
      firstName: 'Mary',
      lastName: 'Somerville',
      email: 'mary@jedburgh.example',
      phone: '+44 131 496 0000',
      currency: 'USD',
      balance: 123_450,
    },
    {
      firstName: 'Min',
      lastName: 'Kim',
      email: 'min@seoul.example',
      phone: '+82 2 1234 5678',
      currency: 'KRW',
      balance: 50_000,
    },
  ]) {
    const response = await page.request.post('/api/clients', { data });
    expect(response.status()).toBe(201);
    ids.push(((await response.json()) as { id: string }).id);
  }
  const payment = await page.request.post(`/api/clients/${ids[0]}/entries`, {
    data: { kind: 'payment', amount: 23_450, note: 'Bank transfer' },
  });
  expect(payment.status()).toBe(201);
  const plan = await page.request.put('/api/reminders/plan', {
    data: {
      enabled: true,
      daysBefore: 3,
      onDueDate: true,
      overdueEveryDays: 7,
      overdueMax: 3,
      attachPdf: false,
      timeZone: 'UTC',
    },
  });
  expect(plan.status()).toBe(200);

  await page.goto('/setting');
  const downloading = page.waitForEvent('download');
  await page.getByRole('link', { name: 'Download all my data (JSON)' }).click();
  const download = await downloading;
  const file = await readFile((await download.path()) ?? '', 'utf8');

  // Another account on the same server: the ids are taken, so the clients get new ones.
  expect((await page.request.post('/api/auth/logout')).ok()).toBe(true);
  await joinThroughApi(page);
  await page.goto('/setting');
  const chooser = page.getByLabel('Export file (JSON)');
  await chooser.setInputFiles({
    name: 'not-json.json',
    mimeType: 'application/json',
    buffer: Buffer.from('{ this is not json'),
  });
  await expect(restoreProblem(page)).toContainText('not-json.json is not a JSON file');

  await chooser.setInputFiles({
    name: 'balance-export.json',
    mimeType: 'application/json',
    buffer: Buffer.from(file),
  });
  const preview = page.getByRole('list', { name: 'What the file holds' });
  // Two clients added, one payment, the first-run setup skipped by the fixture, the plan saved.
  await expect(preview).toContainText('2 clients, 3 ledger entries, 5 history entries');
  await expect(preview).toContainText(
    'Payment reminders were on: they come back turned off, because the file does not say which reminders were already sent.',
  );
  await expect(preview).toContainText(
    '2 clients get a new id, because another account on this server uses theirs',
  );
  // Nothing is written before the owner confirms.
  expect(await clientCount(page)).toBe(0);
  await page.getByRole('button', { name: 'Restore' }).click();
  await expect(
    flash(page, 'Restored 2 clients. Payment reminders are off: turn them on again in Settings.'),
  ).toBeVisible();
  await expect(page).toHaveURL('/');
  await expect(page.getByRole('row', { name: /Mary Somerville/ })).toContainText('$1,000.00');
  await expect(page.getByRole('row', { name: /Min Kim/ })).toContainText('₩50,000');

  await page
    .getByRole('row', { name: /Mary Somerville/ })
    .getByRole('link')
    .first()
    .click();
  await expect(
    page.getByTestId('ledger-entry').filter({ hasText: 'Payment · Bank transfer' }),
  ).toContainText('-$234.50');
  await expect(
    page.getByText('Restored from an export file with a balance of $1,000.00'),
  ).toBeVisible();

  await page.goto('/setting');
  await expect(page.getByRole('switch', { name: 'Send reminders' })).not.toBeChecked();
  await page.getByLabel('Export file (JSON)').setInputFiles({
    name: 'balance-export.json',
    mimeType: 'application/json',
    buffer: Buffer.from(file),
  });
  await expect(restoreProblem(page)).toContainText('This account already has clients');
  await expect(page.getByRole('button', { name: 'Restore' })).toHaveCount(0);
});
