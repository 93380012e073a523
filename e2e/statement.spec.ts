import { readFile } from 'node:fs/promises';
import { pdfText } from '../tests/pdf-text.ts';
import { expect, flash, joinThroughApi, test } from './fixtures.ts';

test('a client statement: figures, downloads as PDF and CSV, printing, and the mailto fallback', async ({
  page,
  context,
}, testInfo) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  await joinThroughApi(page);
  // The business details as the owner types them on the Settings screen.
  await page.goto('/setting');
  await page.getByLabel('Business name').fill('한빛 상사');
  await page.getByLabel('Business address').fill('서울특별시 중구 세종대로 110\nSeoul 04524');
  await page.getByLabel('Tax ID').fill('123-45-67890');
  await page
    .getByLabel('Payment details')
    .fill('국민은행 123-456-789012\nhttps://pay.example/hanbit');
  await page.getByRole('button', { name: 'Save business details' }).click();
  await expect(flash(page, 'Setting has been updated')).toBeVisible();
  await page.reload();
  await expect(page.getByLabel('Business name')).toHaveValue('한빛 상사');
  await page.screenshot({ path: testInfo.outputPath('settings.png'), fullPage: true });
  const email = `jiwoo.${Date.now()}@example.com`;
  const added = await page.request.post('/api/clients', {
    data: {
      firstName: '지우',
      lastName: 'Ødegård',
      email,
      phone: '010 1234 5678',
      balance: 0,
      currency: 'KRW',
    },
  });
  expect(added.status()).toBe(201);
  const { id } = (await added.json()) as { id: string };
  for (const data of [
    { kind: 'charge', amount: 1_500_000, date: '2025-03-01' },
    { kind: 'charge', amount: 2_000_000, date: '2025-05-02', note: '5월 작업' },
  ]) {
    expect((await page.request.post(`/api/clients/${id}/entries`, { data })).status()).toBe(201);
  }

  // The payment as the owner records it, by keyboard: paid in cash, not the preselected transfer.
  await page.goto(`/client/${id}`);
  await page.getByRole('button', { name: 'Record payment', exact: true }).click();
  const paying = page.getByRole('form', { name: 'Record payment' });
  await expect(paying.getByLabel(/^Amount/)).toBeFocused();
  await page.keyboard.type('700000');
  await paying.getByLabel('Date', { exact: true }).fill('2025-05-20');
  const method = paying.getByLabel('Paid by');
  await expect(method).toHaveValue('bank_transfer');
  await method.focus();
  await page.keyboard.press('ArrowUp');
  await expect(method).toHaveValue('cash');
  await paying.getByLabel('Note (optional)').press('Enter');
  // More than a year ago: asked once more, then recorded.
  await paying.getByRole('button', { name: 'Record anyway' }).click();
  await expect(flash(page, 'Payment recorded')).toBeVisible();
  await expect(page.getByTestId('ledger-entry').last()).toContainText('Payment · Cash');
  await page.getByRole('link', { name: 'Statement' }).click();
  await expect(page).toHaveURL(new RegExp(`/client/${id}/statement$`));
  await expect(page.getByRole('heading', { name: 'Statement of account' })).toBeVisible();

  await page.getByLabel('From', { exact: true }).fill('2025-05-01');
  await page.getByLabel('To', { exact: true }).fill('2025-05-31');
  await page.getByRole('button', { name: 'Show' }).click();
  await expect(page).toHaveURL(/from=2025-05-01&to=2025-05-31/);
  // The amount due first, with what is overdue, when and how to pay.
  // Who sends it, when it is as of, and its number, the same every time it is made.
  await expect(page.getByTestId('tax-id')).toHaveText('Tax ID: 123-45-67890');
  await expect(page.getByTestId('statement-date')).toHaveText('Statement date: May 31, 2025');
  const numbered = page.getByTestId('statement-number');
  await expect(numbered).toHaveText(/^Statement no\.: [0-9A-Z]{6}-20250531$/);
  const number = (await numbered.textContent())?.replace('Statement no.: ', '') ?? '';
  await expect(page.getByTestId('amount-due')).toHaveText('₩2,800,000');
  await expect(page.getByTestId('overdue')).toHaveText('Overdue: ₩2,800,000');
  await expect(page.getByTestId('pay-by')).toHaveText('Overdue since Mar 1, 2025: please pay now');
  await expect(page.getByTestId('payment-details')).toContainText('국민은행 123-456-789012');
  await expect(page.getByText('Statement in KRW')).toBeVisible();
  // The payment settles the oldest first: ₩800,000 left of March's charge (91 days overdue on
  // 31 May) and all of May's (29 days). Figures carry no symbol, dates as English screens write them.
  const open = page.getByRole('table', { name: 'Open items' }).locator('tbody tr');
  await expect(open).toHaveText([
    ['Mar 1, 2025', 'Charge', 'Mar 1, 2025', '1,500,000', '700,000', '800,000', '91'].join(''),
    ['May 2, 2025', '5월 작업', 'May 2, 2025', '2,000,000', '', '2,000,000', '29'].join(''),
  ]);
  await expect(page.getByTestId('opening-balance')).toHaveText('1,500,000');
  await expect(page.getByTestId('closing-balance')).toHaveText('2,800,000');
  const rows = page.getByRole('table', { name: 'Entries' }).locator('tbody tr');
  await expect(rows).toHaveCount(4);
  await expect(rows.nth(0)).toContainText('Balance brought forward');
  await expect(rows.nth(1)).toContainText('Charge: 5월 작업');
  await expect(rows.nth(2)).toContainText('Payment (cash)');
  await expect(rows.nth(2)).toContainText('(700,000)');
  await expect(rows.nth(2)).toContainText('2,800,000');
  // Empty cells, not zeros.
  await expect(page.getByRole('table', { name: 'Ageing' }).locator('tbody tr')).toHaveText(
    ['', '2,000,000', '', '', '800,000', '2,800,000'].join(''),
  );
  await expect(page.getByText('한빛 상사')).toBeVisible();

  // A period that ends before it starts is refused on the page, naming the field.
  await page.getByLabel('From', { exact: true }).fill('2025-06-02');
  await page.getByLabel('To', { exact: true }).fill('2025-06-01');
  await page.getByRole('button', { name: 'Show' }).click();
  await expect(page.getByText('The start cannot be after the end of the period.')).toBeVisible();
  await expect(page).toHaveURL(/from=2025-05-01&to=2025-05-31/);

  await page.screenshot({ path: testInfo.outputPath('statement-screen.png'), fullPage: true });
  await page.emulateMedia({ media: 'print' });
  await expect(page.getByRole('navigation', { name: 'Main' })).toBeHidden();
  await expect(page.getByRole('link', { name: 'Download PDF' })).toBeHidden();
  await expect(page.getByRole('button', { name: 'Print' })).toBeHidden();
  await expect(page.getByRole('button', { name: 'Send statement' })).toBeHidden();
  await expect(page.getByRole('link', { name: 'Back to client' })).toBeHidden();
  await expect(page.getByRole('form', { name: 'Period' })).toBeHidden();
  await expect(page.getByTestId('amount-due')).toBeVisible();
  await expect(page.getByTestId('closing-balance')).toBeVisible();
  await page.screenshot({ path: testInfo.outputPath('statement-print.png'), fullPage: true });
  // Printed on both papers, every figure is on the page (nothing cut off at the right edge).
  for (const format of ['A4', 'Letter'] as const) {
    const printed = await pdfText(await page.pdf({ format }));
    expect(printed.pages, format).toBe(1);
    expect(printed.text, format).toContain('₩2,800,000');
    expect(printed.text, format).toContain('Total owed');
  }
  // Printed from a screen in dark mode: still no control of the page, and dark text on the paper.
  await page.emulateMedia({ media: 'print', colorScheme: 'dark' });
  await expect(page.getByRole('navigation', { name: 'Main' })).toBeHidden();
  await expect(
    page.locator('button:visible, input:visible, select:visible, textarea:visible, a.btn:visible'),
  ).toHaveCount(0);
  await expect(page.getByTestId('amount-due')).toHaveCSS('color', 'rgb(33, 37, 41)');
  await expect(page.getByTestId('closing-balance')).toHaveCSS('color', 'rgb(0, 0, 0)');
  await page.emulateMedia({ media: 'screen', colorScheme: 'light' });

  const pdfDownload = page.waitForEvent('download');
  await page.getByRole('link', { name: 'Download PDF' }).click();
  const pdf = await pdfDownload;
  // The client's name kept as written.
  expect(pdf.suggestedFilename()).toBe('statement-지우-Ødegård-2025-05-01-to-2025-05-31.pdf');
  const { text } = await pdfText(await readFile(await pdf.path()));
  const flat = text.replace(/\s+/g, ' ');
  for (const expected of [
    '한빛 상사',
    'Tax ID: 123-45-67890',
    'Statement date: May 31, 2025',
    `Statement no.: ${number}`,
    '지우 Ødegård',
    'Amount due ₩2,800,000',
    'Overdue since Mar 1, 2025: please pay now',
    '국민은행 123-456-789012',
    'May 1, 2025 Balance brought forward 1,500,000',
    'May 20, 2025 Payment (cash) (700,000) 2,800,000',
    'May 31, 2025 Closing balance 2,800,000',
  ])
    expect(flat).toContain(expected);

  const csvDownload = page.waitForEvent('download');
  await page.getByRole('link', { name: 'Download CSV' }).click();
  const csv = await readFile(await (await csvDownload).path(), 'utf8');
  expect(csv).toContain('2025-05-20,Payment (cash),,-700000,2800000');
  expect(csv).toContain('Amount due,2800000');
  expect(csv).toContain('2025-05-31,Closing balance,,,2800000');

  // No mail server on this instance: the text goes through the owner's own mail program.
  await page.getByRole('button', { name: 'Send statement' }).click();
  await expect(page.getByText('This server has no mail server set up')).toBeVisible();
  const subject = page.getByLabel('Subject');
  await expect(subject).toHaveValue(
    /^Statement of account from 한빛 상사, May 1, 2025 to May 31, 2025$/,
  );
  await expect(page.getByLabel('Message')).toHaveValue(/Of this, ₩2,800,000 is overdue\./);
  await subject.fill('May statement');
  const mailto = await page
    .getByRole('link', { name: 'Open in your e-mail program' })
    .getAttribute('href');
  expect(mailto).toMatch(
    new RegExp(`^mailto:${encodeURIComponent(email)}\\?subject=May%20statement&body=`),
  );
  expect(decodeURIComponent(mailto?.split('&body=')[1] ?? '')).toContain('₩2,800,000 is overdue');
  await page.getByRole('button', { name: 'Copy text' }).click();
  await expect(page.getByText('Copied')).toBeVisible();
  const copied = await page.evaluate(() => navigator.clipboard.readText());
  expect(copied).toMatch(/^May statement\n\nDear 지우 Ødegård,/);
  expect(copied).toContain('How to pay\n국민은행 123-456-789012');
  await page.screenshot({ path: testInfo.outputPath('statement-send.png'), fullPage: true });
});

test('the statement of another owner’s client is "Client not found"', async ({ page, browser }) => {
  await joinThroughApi(page);
  const added = await page.request.post('/api/clients', {
    data: {
      firstName: 'Only',
      lastName: 'Mine',
      email: `only.${Date.now()}@example.com`,
      phone: '+1 555 010 2030',
      balance: 100,
      currency: 'USD',
    },
  });
  const { id } = (await added.json()) as { id: string };
  const stranger = await browser.newPage();
  await joinThroughApi(stranger);
  await stranger.goto(`/client/${id}/statement`);
  await expect(stranger.getByText('Client not found')).toBeVisible();
  await expect(stranger.getByText('Only Mine')).toHaveCount(0);
  await stranger.close();
});

for (const { language, locale, amountDue, payBy, swipe } of [
  {
    language: 'ko',
    locale: 'ko-KR',
    amountDue: '청구 금액',
    payBy: '2025. 3. 1.부터 연체: 지금 납부해 주세요',
    swipe: '옆으로 밀어 모든 열을 보세요.',
  },
  {
    language: 'ms',
    locale: 'ms-MY',
    amountDue: 'Jumlah perlu dibayar',
    payBy: 'Tertunggak sejak 1 Mac 2025: sila bayar sekarang',
    swipe: 'Leret ke sisi untuk melihat semua lajur.',
  },
])
  test.describe(`the statement in ${language}`, () => {
    test.use({ locale });

    test('reads in the language at A4 width and on a phone, nothing wider than the screen', async ({
      page,
    }, testInfo) => {
      await joinThroughApi(page);
      const added = await page.request.post('/api/clients', {
        data: {
          firstName: 'Siti',
          lastName: 'Aminah',
          email: `siti.${Date.now()}@example.com`,
          phone: '012 345 6789',
          balance: 0,
          currency: 'MYR',
        },
      });
      const { id } = (await added.json()) as { id: string };
      for (const data of [
        { kind: 'charge', amount: 250_000, date: '2025-03-01', note: 'INV-7' },
        { kind: 'payment', amount: 100_000, date: '2025-05-20' },
      ])
        expect((await page.request.post(`/api/clients/${id}/entries`, { data })).status()).toBe(
          201,
        );
      for (const width of [794, 375]) {
        await page.setViewportSize({ width, height: 1123 });
        await page.goto(`/client/${id}/statement?from=2025-05-01&to=2025-05-31`);
        await expect(page.getByRole('region', { name: amountDue })).toContainText('RM 1,500.00');
        await expect(page.getByTestId('pay-by')).toHaveText(payBy);
        const scrollWidth = await page.evaluate(() => document.documentElement.scrollWidth);
        expect(scrollWidth).toBeLessThanOrEqual(width);
        // On the phone the tables scroll inside their boxes, and the page says so above them.
        const hints = page.getByTestId('scroll-hint');
        if (width < 576) await expect(hints.first()).toHaveText(swipe);
        else await expect(hints).toHaveCount(0);
        await page.screenshot({
          path: testInfo.outputPath(`statement-${language}-${width}.png`),
          fullPage: true,
        });
      }
    });
  });
