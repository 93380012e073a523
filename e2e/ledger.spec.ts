import type { Page } from '@playwright/test';
import { expect, flash, joinThroughApi, test } from './fixtures.ts';

/** Adds a client through the API (the page's own session) and opens its details. */
async function openNewClient(
  page: Page,
  values: { balance: number; currency?: 'USD' | 'KRW' | 'CAD' | 'MYR'; lastName?: string },
): Promise<string> {
  const response = await page.request.post('/api/clients', {
    data: {
      firstName: 'Grace',
      lastName: values.lastName ?? 'Hopper',
      email: `grace.${Date.now()}.${Math.random().toString(36).slice(2)}@example.com`,
      phone: '+1 555 010 2030',
      balance: values.balance,
      currency: values.currency ?? 'USD',
    },
  });
  expect(response.status()).toBe(201);
  const { id } = (await response.json()) as { id: string };
  await page.goto(`/client/${id}`);
  await expect(page.getByTestId('client-balance')).toBeVisible();
  return id;
}

/** Opens one of the small entry forms, fills it and sends it. */
async function recordEntry(
  page: Page,
  action: 'Record payment' | 'Add charge' | 'Add credit',
  fields: { amount: string; note?: string; dueDate?: string; date?: string },
) {
  await page.getByRole('button', { name: action, exact: true }).first().click();
  const form = page.getByRole('form', { name: action });
  await form.getByLabel(/^Amount/).fill(fields.amount);
  if (fields.date) await form.getByLabel('Date', { exact: true }).fill(fields.date);
  if (fields.dueDate) await form.getByLabel('Due date (optional)').fill(fields.dueDate);
  if (fields.note) await form.getByLabel('Note (optional)').fill(fields.note);
  await form.getByRole('button', { name: action }).click();
  return form;
}

const rows = (page: Page) => page.getByTestId('ledger-entry');

/** A day counted from today on this machine (the browser's clock), as YYYY-MM-DD. */
function dayFromToday({ days = 0, years = 0 }: { days?: number; years?: number }): string {
  const date = new Date();
  date.setFullYear(date.getFullYear() + years, date.getMonth(), date.getDate() + days);
  const pad = (value: number) => String(value).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
}

test.describe('the ledger', () => {
  test('payments, charges, credits and a void move the balance, the running balance and the totals', async ({
    page,
  }, testInfo) => {
    await joinThroughApi(page);
    await openNewClient(page, { balance: 500_00 });
    const balance = page.getByTestId('client-balance');
    await expect(balance).toHaveText('$500.00');
    await expect(rows(page)).toHaveCount(1);
    await expect(rows(page).first()).toContainText('Opening balance');

    const charge = await recordEntry(page, 'Add charge', {
      amount: '120',
      note: 'Invoice 41',
      dueDate: dayFromToday({ days: 30 }),
    });
    await expect(flash(page, 'Charge added')).toBeVisible();
    await expect(charge).toBeHidden();
    await expect(balance).toHaveText('$620.00');
    await expect(page.locator('[data-balance]')).toHaveClass(/text-owed/);

    await recordEntry(page, 'Record payment', { amount: '200', note: 'ref 123' });
    await expect(flash(page, 'Payment recorded')).toBeVisible();
    await expect(balance).toHaveText('$420.00');

    await recordEntry(page, 'Add credit', { amount: '20.50' });
    await expect(flash(page, 'Credit added')).toBeVisible();
    await expect(balance).toHaveText('$399.50');

    // Oldest first, as the statement and the entries CSV: each with the balance after it.
    await expect(rows(page)).toHaveCount(4);
    await expect(rows(page).nth(0)).toContainText('Opening balance');
    await expect(rows(page).nth(0)).toContainText('$500.00');
    await expect(rows(page).nth(1)).toContainText('Charge · Invoice 41 · due');
    await expect(rows(page).nth(1)).toContainText('$620.00');
    await expect(rows(page).nth(2)).toContainText('Payment · Bank transfer · ref 123');
    await expect(rows(page).nth(2)).toContainText('$420.00');
    await expect(rows(page).nth(3)).toContainText('Credit');
    await expect(rows(page).nth(3)).toContainText('-$20.50');
    await expect(rows(page).nth(3)).toContainText('$399.50');

    // Void the payment: the modal asks for a reason first.
    await rows(page)
      .nth(2)
      .getByRole('button', { name: /^Void payment/ })
      .click();
    const dialog = page.getByRole('dialog', { name: 'Void entry?' });
    await expect(dialog).toBeVisible();
    await dialog.getByRole('button', { name: 'Void' }).click();
    await expect(dialog.getByText('Enter a reason.')).toBeVisible();
    await dialog.getByPlaceholder('Reason').fill('Cheque bounced');
    await dialog.getByRole('button', { name: 'Void' }).click();
    await expect(flash(page, 'Entry voided')).toBeVisible();
    await expect(dialog).toBeHidden();
    await expect(balance).toHaveText('$599.50');

    // The payment and its void sit together, greyed, with no balance of their own; the credit
    // after them counts from the charge as if the payment had never been.
    await expect(rows(page)).toHaveCount(5);
    const payment = rows(page).nth(2);
    const reversal = rows(page).nth(3);
    await expect(payment).toContainText('Payment · Bank transfer · ref 123');
    await expect(payment).toContainText('Voided');
    await expect(reversal).toContainText('Void of payment');
    await expect(reversal).toContainText('Cheque bounced');
    for (const row of [payment, reversal]) {
      await expect(row).toHaveAttribute('data-voided-pair', 'true');
      await expect(row.getByRole('cell').nth(1)).toHaveClass(/text-body-secondary/);
      await expect(row.getByRole('cell').nth(3)).toHaveText('');
      await expect(row.getByRole('button', { name: /^Void/ })).toHaveCount(0);
    }
    await expect(rows(page).nth(4)).toContainText('Credit');
    await expect(rows(page).nth(4).getByRole('cell').nth(3)).toHaveText('$599.50');
    await expect(rows(page).nth(1).getByRole('cell').nth(3)).toHaveText('$620.00');

    // History holds no ledger line: only the client's being added.
    const history = page.getByRole('list', { name: 'History, newest first' });
    await expect(history.getByRole('listitem')).toHaveCount(1);
    await expect(history).toContainText('Added with a balance of $500.00');
    await expect(page.getByText(/balance \$399\.50 → \$599\.50/)).toHaveCount(0);
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.screenshot({ path: testInfo.outputPath('ledger-1280.png'), fullPage: true });
    // On a phone the pair stays readable and nothing scrolls sideways.
    await page.setViewportSize({ width: 375, height: 800 });
    await expect(reversal).toContainText('Void of payment');
    await page.screenshot({ path: testInfo.outputPath('ledger-375.png'), fullPage: true });
    const overflow = await page.evaluate(
      () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
    );
    expect(overflow).toBeLessThanOrEqual(0);

    await page.getByRole('link', { name: 'Back to dashboard' }).click();
    await expect(page.getByRole('heading', { name: /Total Owed/ })).toContainText('$599.50');
  });

  test('a refused or failed entry keeps what was typed and says why', async ({ page }) => {
    await joinThroughApi(page);
    await openNewClient(page, { balance: 0, currency: 'KRW' });
    await page.getByRole('button', { name: 'Record payment' }).click();
    const form = page.getByRole('form', { name: 'Record payment' });
    await form.getByRole('button', { name: 'Record payment' }).click();
    await expect(form.getByText('Enter an amount.')).toBeVisible();
    await form.getByLabel(/^Amount/).fill('10.5');
    await form.getByLabel('Note (optional)').focus();
    await expect(form.getByText('KRW has no decimal places.')).toBeVisible();

    // The network fails: nothing is recorded, the form keeps the amount and the note.
    await page.route('**/api/clients/*/entries', (route) => route.abort('connectionfailed'));
    await form.getByLabel(/^Amount/).fill('15,000');
    await form.getByLabel('Note (optional)').fill('bank transfer');
    await form.getByRole('button', { name: 'Record payment' }).click();
    // Nothing is owed: the payment would leave a credit, which is asked about first.
    await form.getByRole('button', { name: 'Record anyway' }).click();
    await expect(flash(page, 'Recording Failed')).toBeVisible();
    await expect(form.getByLabel(/^Amount/)).toHaveValue('15,000');
    await expect(form.getByLabel('Note (optional)')).toHaveValue('bank transfer');
    await expect(page.getByTestId('client-balance')).toHaveText('₩0');

    await page.unroute('**/api/clients/*/entries');
    await form.getByRole('button', { name: 'Record payment' }).click();
    await form.getByRole('button', { name: 'Record anyway' }).click();
    await expect(flash(page, 'Payment recorded')).toBeVisible();
    await expect(page.getByTestId('client-balance')).toHaveText('-₩15,000');
  });

  test('the payment form offers the balance due, asks before leaving a credit, and gives focus back', async ({
    page,
  }) => {
    await joinThroughApi(page);
    await openNewClient(page, { balance: 240_50 });
    const balance = page.getByTestId('client-balance');
    const opener = page.getByRole('button', { name: 'Record payment', exact: true });
    const sent: string[] = [];
    page.on('request', (request) => {
      if (request.method() === 'POST' && request.url().endsWith('/entries'))
        sent.push(request.url());
    });

    await opener.click();
    const form = page.getByRole('form', { name: 'Record payment' });
    const amount = form.getByLabel(/^Amount/);
    await expect(amount).toBeFocused();
    await form.getByRole('button', { name: 'Pay full balance ($240.50)' }).click();
    await expect(amount).toHaveValue('240.50');

    // A slip of the keyboard: far more than is owed. Enter asks instead of recording.
    await amount.fill('99999');
    await amount.press('Enter');
    await expect(
      form
        .getByRole('alert')
        .getByText('This payment is more than the $240.50 owed: it leaves a credit of $99,758.50.'),
    ).toBeVisible();
    await expect(form.getByRole('button', { name: 'Record anyway' })).toBeFocused();
    expect(sent).toEqual([]);
    // Escape goes back to the amount to change it; a second Escape closes the form.
    await page.keyboard.press('Escape');
    await expect(form.getByRole('alert')).toBeHidden();
    await expect(amount).toBeFocused();
    await page.keyboard.press('Escape');
    await expect(form).toBeHidden();
    await expect(opener).toBeFocused();
    expect(sent).toEqual([]);
    await expect(balance).toHaveText('$240.50');

    // The full balance, sent with Enter: recorded at once, and focus is back on the button.
    await opener.click();
    await form.getByRole('button', { name: /^Pay full balance/ }).click();
    await amount.press('Enter');
    await expect(flash(page, 'Payment recorded')).toBeVisible();
    await expect(form).toBeHidden();
    await expect(balance).toHaveText('$0.00');
    await expect(opener).toBeFocused();

    // Paying in advance is allowed, once confirmed.
    await opener.click();
    await expect(form.getByRole('button', { name: /^Pay full balance/ })).toHaveCount(0);
    await amount.fill('10');
    await amount.press('Enter');
    await expect(
      form.getByText('This payment is more than the $0.00 owed: it leaves a credit of $10.00.'),
    ).toBeVisible();
    await form.getByRole('button', { name: 'Record anyway' }).click();
    await expect(flash(page, 'Payment recorded')).toBeVisible();
    await expect(balance).toHaveText('-$10.00');
    await expect(opener).toBeFocused();
  });

  test('a due date more than a year ahead or a date more than a year back is asked about', async ({
    page,
  }) => {
    await joinThroughApi(page);
    await openNewClient(page, { balance: 100_00 });
    const balance = page.getByTestId('client-balance');
    const farDue = dayFromToday({ years: 1, days: 1 });
    await page.getByRole('button', { name: 'Add charge', exact: true }).click();
    const charge = page.getByRole('form', { name: 'Add charge' });
    await charge.getByLabel(/^Amount/).fill('50');
    await charge.getByLabel('Due date (optional)').fill(farDue);
    await charge.getByRole('button', { name: 'Add charge' }).click();
    // English writes the day as "Nov 28, 2027".
    await expect(charge.getByText(/^The due date, .+, is more than a year away\.$/)).toBeVisible();
    await charge.getByRole('button', { name: 'Change it' }).click();
    await expect(charge.getByLabel('Due date (optional)')).toBeFocused();
    // A year ahead to the day is still a plain charge.
    await charge.getByLabel('Due date (optional)').fill(dayFromToday({ years: 1 }));
    await charge.getByRole('button', { name: 'Add charge' }).click();
    await expect(flash(page, 'Charge added')).toBeVisible();
    await expect(balance).toHaveText('$150.00');

    const longAgo = dayFromToday({ years: -1, days: -1 });
    await page.getByRole('button', { name: 'Record payment', exact: true }).click();
    const payment = page.getByRole('form', { name: 'Record payment' });
    await payment.getByLabel(/^Amount/).fill('20');
    await payment.getByLabel('Date', { exact: true }).fill(longAgo);
    await payment.getByRole('button', { name: 'Record payment' }).click();
    await expect(payment.getByText(/^The date, .+, is more than a year ago\.$/)).toBeVisible();
    await expect(balance).toHaveText('$150.00');
    await payment.getByRole('button', { name: 'Record anyway' }).click();
    await expect(flash(page, 'Payment recorded')).toBeVisible();
    await expect(balance).toHaveText('$130.00');
  });

  test('the pencil closes with Escape and gives focus back to itself', async ({ page }) => {
    await joinThroughApi(page);
    await openNewClient(page, { balance: 100_00 });
    const pencil = page.getByRole('button', { name: 'Edit balance' });
    await pencil.click();
    await page.getByLabel('New balance').press('Escape');
    await expect(page.getByLabel('New balance')).toBeHidden();
    await expect(pencil).toBeFocused();
  });

  for (const { locale, open, amountRequired, check } of [
    {
      locale: 'ko-KR',
      open: '입금 기록',
      amountRequired: '금액을 입력하세요.',
      check: '이 입금액은 미수금',
    },
    {
      locale: 'ms-MY',
      open: 'Rekod bayaran',
      amountRequired: 'Masukkan amaun.',
      check: 'Bayaran ini melebihi',
    },
  ]) {
    test.describe(locale, () => {
      test.use({ locale });
      test(`the payment form speaks ${locale}: its messages and its check`, async ({ page }) => {
        await joinThroughApi(page);
        await openNewClient(page, { balance: 5_00 });
        await page.getByRole('button', { name: open, exact: true }).click();
        const form = page.getByRole('form', { name: open });
        await form.getByRole('button', { name: open }).click();
        await expect(form.getByText(amountRequired)).toBeVisible();
        await form.getByRole('textbox').first().fill('6');
        await form.getByRole('button', { name: open }).click();
        await expect(form.getByRole('alert')).toContainText(check);
      });
    });
  }

  test('the pencil set from another tab meanwhile answers the conflict instead of overwriting', async ({
    context,
  }) => {
    const first = await context.newPage();
    await joinThroughApi(first);
    const id = await openNewClient(first, { balance: 500_00 });
    await first.getByRole('button', { name: 'Edit balance' }).click();

    // Another tab records a payment while the pencil is open here.
    const second = await context.newPage();
    await second.goto(`/client/${id}`);
    await recordEntry(second, 'Record payment', { amount: '100' });
    await expect(flash(second, 'Payment recorded')).toBeVisible();
    await expect(first.getByTestId('client-balance')).toHaveText('$400.00');

    await first.getByLabel('New balance').fill('450');
    await first.getByRole('button', { name: 'Update' }).click();
    await expect(flash(first, 'Updating Failed')).toBeVisible();
    await expect(first.getByText(/changed elsewhere/)).toBeVisible();
    await expect(first.getByLabel('New balance')).toHaveValue('450');

    // Made again against the balance shown now, it lands as an adjustment.
    await first.getByRole('button', { name: 'Update' }).click();
    await expect(flash(first, 'Client Updated')).toBeVisible();
    await expect(first).toHaveURL('/');
    await second.reload();
    await expect(second.getByTestId('client-balance')).toHaveText('$450.00');
    await expect(rows(second).last()).toContainText('Adjustment');
    await expect(rows(second).last()).toContainText('$50.00');
  });

  test('two tabs recording payments at once both land', async ({ context }) => {
    const first = await context.newPage();
    await joinThroughApi(first);
    const id = await openNewClient(first, { balance: 1_000_00 });
    const second = await context.newPage();
    await second.goto(`/client/${id}`);
    await expect(second.getByTestId('client-balance')).toHaveText('$1,000.00');
    await Promise.all([
      recordEntry(first, 'Record payment', { amount: '250' }),
      recordEntry(second, 'Record payment', { amount: '300' }),
    ]);
    await expect(flash(first, 'Payment recorded')).toBeVisible();
    await expect(flash(second, 'Payment recorded')).toBeVisible();
    await expect(first.getByTestId('client-balance')).toHaveText('$450.00');
    await expect(second.getByTestId('client-balance')).toHaveText('$450.00');
    // Each tab's ledger shows the other's payment too, by the live stream.
    await expect(rows(first)).toHaveCount(3);
    await expect(rows(second)).toHaveCount(3);
  });

  test('balances locked in Settings lock the pencil; recorded amounts lock the currency', async ({
    page,
  }) => {
    await joinThroughApi(page);
    const id = await openNewClient(page, { balance: 100_00 });
    await recordEntry(page, 'Record payment', { amount: '10' });
    await expect(flash(page, 'Payment recorded')).toBeVisible();

    await page.goto(`/client/edit/${id}`);
    await expect(page.getByLabel('Currency')).toBeDisabled();
    await expect(
      page.getByText('Kept once payments, charges, credits or adjustments are recorded'),
    ).toBeVisible();

    const saved = await page.request.put('/api/settings', {
      data: {
        preferences: { disableBalanceOnAdd: false, disableBalanceOnEdit: true },
        rates: [],
      },
    });
    expect(saved.status()).toBe(200);
    await page.goto(`/client/${id}`);
    await expect(page.getByRole('button', { name: 'Edit balance' })).toBeDisabled();
    // Payments are the ledger, not the balance field: they still work.
    await recordEntry(page, 'Record payment', { amount: '5' });
    await expect(page.getByTestId('client-balance')).toHaveText('$85.00');
  });

  test('fits a phone: the ledger and its forms, nothing scrolls sideways @phone', async ({
    page,
  }, testInfo) => {
    await joinThroughApi(page);
    await openNewClient(page, {
      balance: 123_456_789_00,
      currency: 'MYR',
      lastName: 'Binti Abdullah Wan Nur Aisyah Rahman',
    });
    await recordEntry(page, 'Add charge', {
      amount: '1,234,567.89',
      note: 'Invoice 2026-0042 for the October retainer',
      dueDate: dayFromToday({ days: 60 }),
    });
    await expect(flash(page, 'Charge added')).toBeVisible();
    await page.getByRole('button', { name: 'Record payment' }).click();
    await expect(page.getByRole('form', { name: 'Record payment' })).toBeVisible();
    await page.screenshot({ path: testInfo.outputPath('ledger-phone.png'), fullPage: true });
    const overflow = await page.evaluate(
      () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
    );
    expect(overflow).toBeLessThanOrEqual(0);
  });
});
