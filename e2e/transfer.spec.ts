import { readFile } from 'node:fs/promises';
import { clientRows, expect, flash, joinThroughApi, test } from './fixtures.ts';

test('export, change the file, import it back with a bad row and a duplicate, preview, confirm', async ({
  page,
}) => {
  await joinThroughApi(page);
  for (const data of [
    {
      firstName: 'Ada',
      lastName: 'Lovelace',
      email: 'ada@engines.example',
      phone: '+44 20 7946 0018',
      currency: 'USD',
      balance: 123_450,
    },
    {
      firstName: 'Siti',
      lastName: 'Aziz',
      email: 'siti@kl.example',
      phone: '+60 3 1234 5678',
      currency: 'MYR',
      balance: 5_000,
    },
  ]) {
    expect((await page.request.post('/api/clients', { data })).status()).toBe(201);
  }
  await page.goto('/');
  const downloading = page.waitForEvent('download');
  await page.getByRole('link', { name: 'Export CSV' }).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toMatch(/^balance-clients-\d{4}-\d{2}-\d{2}\.csv$/);
  const exported = await readFile((await download.path()) ?? '', 'utf8');
  // SPEC.md's six columns first, then a business client's (issue 56).
  expect(
    exported.startsWith(
      '\uFEFFFirst name,Last name,Email,Phone,Balance,Currency,' +
        'Company,Address line 1,Address line 2,City,Postcode,Country,Tax ID,Notes\n',
    ),
  ).toBe(true);
  expect(exported).toContain("Ada,Lovelace,ada@engines.example,'+44 20 7946 0018,1234.50,USD");
  expect(exported).toContain("Siti,Aziz,siti@kl.example,'+60 3 1234 5678,50.00,MYR");

  const changed =
    exported +
    'Grace,Hopper,grace@navy.example,+1 202 555 0147,"1,250.75",USD,,,,,,,,\n' +
    'Bad,Row,not-an-email,123,12.345,USD,,,,,,,,\n' +
    'Ada,Again,ADA@engines.example,+44 20 7946 0018,5,RM,,,,,,,,\n';

  await page.getByRole('link', { name: 'Import CSV' }).click();
  await page
    .getByLabel('CSV file')
    .setInputFiles({ name: 'clients.csv', mimeType: 'text/csv', buffer: Buffer.from(changed) });
  await expect(page.getByText('Columns of clients.csv (5 rows)')).toBeVisible();
  await expect(page.getByLabel('First name')).toHaveValue('0');
  await expect(page.getByLabel('Currency')).toHaveValue('5');
  await page.getByRole('button', { name: 'Check rows' }).click();

  await expect(
    page.getByText('1 row will be imported · 1 with problems, left out · 3 duplicates, left out'),
  ).toBeVisible();
  const problems = page.getByRole('table');
  await expect(problems.getByRole('row', { name: /^5 / })).toContainText(
    'Email: enter valid email',
  );
  await expect(problems.getByRole('row', { name: /^5 / })).toContainText(
    'Balance: Use at most 2 decimal places.',
  );
  await expect(problems.getByRole('row', { name: /^6 / })).toContainText(
    'Duplicate: this e-mail is already a client',
  );
  // Nothing is written before the owner confirms.
  expect(((await (await page.request.get('/api/clients')).json()) as { count: number }).count).toBe(
    2,
  );

  await page.getByRole('button', { name: 'Import 1 client' }).click();
  await expect(flash(page, '1 client imported')).toBeVisible();
  await expect(page).toHaveURL('/');
  await expect(page.getByRole('row', { name: /Grace Hopper/ })).toContainText('$1,250.75');
  await expect(clientRows(page)).toHaveCount(3);
});

test('an import with as-of, due date and reference columns ages the balances it brings in', async ({
  page,
}) => {
  await joinThroughApi(page);
  const day = (daysFromToday: number) =>
    new Date(Date.now() + daysFromToday * 86_400_000).toISOString().slice(0, 10);
  const file =
    'First name,Last name,Email,Phone,Balance,Currency,As of,Due date,Reference\n' +
    `Min,Kim,min@seoul.example,010-1234-5678,"2,300,000",KRW,${day(-120)},${day(-100)},INV-2025-07\n` +
    `Ji-woo,Park,jiwoo@seoul.example,010-2345-6789,"900,000",KRW,${day(-20)},,\n` +
    `Hana,Lee,hana@seoul.example,010-3456-7890,"500,000",KRW,${day(-5)},${day(25)},INV-2025-11\n`;
  await page.goto('/');
  await page.getByRole('link', { name: 'Import CSV' }).click();
  await page
    .getByLabel('CSV file')
    .setInputFiles({ name: 'opening.csv', mimeType: 'text/csv', buffer: Buffer.from(file) });
  await expect(page.getByText('Columns of opening.csv (3 rows)')).toBeVisible();
  await expect(page.getByLabel('As of (optional)')).toHaveValue('6');
  await expect(page.getByLabel('Due date (optional)')).toHaveValue('7');
  await expect(page.getByLabel('Reference (optional)')).toHaveValue('8');
  await page.screenshot({ path: 'test-results/import-opening-mapping.png', fullPage: true });
  await page.getByRole('button', { name: 'Check rows' }).click();
  await page.getByRole('button', { name: 'Import 3 clients' }).click();
  await expect(flash(page, '3 clients imported')).toBeVisible();

  // Two are overdue: one due 100 days ago, one due on its own date 20 days ago.
  const overview = (await (await page.request.get('/api/overview')).json()) as {
    currencies: { clientsOverdue: number; buckets: Record<string, string> }[];
  };
  expect(overview.currencies[0]).toMatchObject({
    clientsOverdue: 2,
    buckets: {
      current: '500000',
      days1to30: '900000',
      days31to60: '0',
      days61to90: '0',
      over90: '2300000',
    },
  });
  await page
    .getByTestId('client-table')
    .getByRole('link', { name: /Min Kim|Kim Min/ })
    .click();
  await expect(page.getByText(/Opening balance · INV-2025-07/)).toBeVisible();
});
