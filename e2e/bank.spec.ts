import { expect, joinThroughApi, test } from './fixtures.ts';

const statement = [
  'Date,Description,Amount,Balance',
  '03/04/2026,TRF INV-2041 ACME,120.00,1120.00',
  '04/04/2026,GRACE HOPPER,80.00,1200.00',
  '05/04/2026,CASH DEPOSIT,50.00,1250.00',
  '06/04/2026,CARD FEE,-2.00,1248.00',
].join('\n');
const file = { name: 'april.csv', mimeType: 'text/csv', buffer: Buffer.from(statement) };

test('a bank statement: map, review the matches, confirm, import again, undo', async ({
  page,
  context,
}) => {
  await joinThroughApi(page);
  const add = async (firstName: string, lastName: string, balance: number) => {
    const response = await page.request.post('/api/clients', {
      data: {
        firstName,
        lastName,
        email: `${firstName.toLowerCase()}@example.com`,
        phone: '+1 202 555 0147',
        currency: 'USD',
        balance,
      },
    });
    expect(response.status()).toBe(201);
    return ((await response.json()) as { id: string }).id;
  };
  const ada = await add('Ada', 'Lovelace', 0);
  const charge = await page.request.post(`/api/clients/${ada}/entries`, {
    data: { kind: 'charge', amount: 500_00, reference: 'INV-2041', note: 'Engine plans' },
  });
  expect(charge.status()).toBe(201);
  await add('Grace', 'Hopper', 300_00);
  await add('Alan', 'Turing', 0);

  // The preview names the clients it suggests: the screen reads no client one by one.
  const clientReads: string[] = [];
  page.on('request', (request) => {
    const path = new URL(request.url()).pathname;
    if (request.method() === 'GET' && /^\/api\/clients\/[^/]+$/.test(path)) clientReads.push(path);
  });
  await page.goto('/bank');
  await expect(page.getByRole('heading', { name: 'Payments from the bank' })).toBeVisible();
  await page.getByLabel('Bank account').fill('Maybank current');
  await page.getByLabel('Statement file').setInputFiles(file);
  // The header's columns are recognised; the dates are day first here.
  await expect(page.getByLabel('Description', { exact: true })).toHaveValue('1');
  await expect(page.getByLabel('Amount', { exact: true })).toHaveValue('2');
  await page.getByLabel('Date order').selectOption('DMY');
  await expect(
    page.getByText('Dates read as day/month/year: 03/04/2026 → April 3, 2026'),
  ).toBeVisible();
  await page.getByRole('button', { name: 'Read the statement' }).click();

  const table = page.getByRole('region', { name: /Incoming payments/ });
  const row = (text: string) => table.getByRole('row').filter({ hasText: text });
  await expect(row('INV-2041').getByLabel('Client who paid line 2')).toContainText(
    'Ada Lovelace (reference found)',
  );
  await expect(row('INV-2041')).toContainText('Reference of an open charge in the text');
  // Part of the charge only: not certain, and the screen says why; the owner checks it.
  await expect(row('INV-2041')).toContainText(
    'The amount is neither what INV-2041 owes nor the balance',
  );
  await row('INV-2041').getByRole('checkbox').press('Space');
  await expect(row('INV-2041').getByRole('checkbox')).toBeChecked();
  await expect(
    row('GRACE HOPPER').getByText("Client's name in the text", { exact: true }),
  ).toBeVisible();
  // A name alone is a medium match, left unchecked: Space checks it.
  await row('GRACE HOPPER').getByRole('checkbox').press('Space');
  await expect(row('GRACE HOPPER').getByRole('checkbox')).toBeChecked();
  // The unmatched line goes to a client found by a search.
  await row('CASH DEPOSIT')
    .getByLabel('Client who paid line 4')
    .selectOption({ label: 'Search another client…' });
  await page.getByLabel('Search clients in USD').fill('Turing');
  await page.getByRole('button', { name: 'Alan Turing' }).click();
  await expect(row('CASH DEPOSIT').getByRole('checkbox')).toBeChecked();
  await page.getByRole('button', { name: 'Record 3 payments ($250.00)' }).click();
  await expect(page.getByText('3 payments recorded, none already recorded before.')).toBeVisible();
  await expect(page.getByRole('link', { name: 'Ada Lovelace' })).toBeVisible();
  expect(clientReads).toEqual([]);

  // The same file again, in another tab: the layout is remembered, every line recorded.
  const again = await context.newPage();
  await again.goto('/bank');
  await expect(again.getByLabel('Bank account')).toHaveValue('Maybank current');
  await again.getByLabel('Statement file').setInputFiles(file);
  await expect(again.getByText(/This bank's layout is known/)).toBeVisible();
  await again.getByRole('button', { name: 'Read the statement' }).click();
  await expect(again.getByText('Already recorded')).toHaveCount(3);
  await expect(again.getByRole('button', { name: 'Record payments' })).toBeDisabled();
  await again.close();

  await page.getByRole('link', { name: 'Alan Turing' }).click();
  await expect(page.getByRole('heading', { name: 'Alan Turing' })).toBeVisible();
  await expect(page.getByText('CASH DEPOSIT')).toBeVisible();
  await page.goBack();
  // The result shown again still names whom it paid.
  await expect(page.getByRole('link', { name: 'Grace Hopper' })).toBeVisible();
  await page.getByRole('button', { name: 'Undo this import' }).click();
  await expect(page.getByText(/Undone: 3 payments voided/)).toBeVisible();
});

test("a statement refused: the form's checks, then the server's on the file, and Back keeps all", async ({
  page,
}) => {
  await joinThroughApi(page);
  await page.goto('/bank');
  await page.getByLabel('Statement file').setInputFiles(file);
  await page.getByLabel('Description', { exact: true }).selectOption('');
  await page.getByRole('button', { name: 'Read the statement' }).click();
  await expect(page.getByText('Name the bank account.')).toBeVisible();
  await expect(page.getByText('Choose the date and the description columns.')).toBeVisible();
  await expect(page.getByLabel('Bank account')).toHaveAttribute('aria-invalid', 'true');

  await page.getByLabel('Bank account').fill('Maybank current');
  await page.getByLabel('Description', { exact: true }).selectOption('1');
  // Read year first, the day-first dates are the server's to refuse, shown under the file.
  await page.getByLabel('Date order').selectOption('YMD');
  await page.getByRole('button', { name: 'Read the statement' }).click();
  await expect(
    page.getByText('Line 2, column 1: this is not a date in the order chosen.'),
  ).toBeVisible();
  await expect(page.getByText('Name the bank account.')).toBeHidden();
  await expect(page.getByLabel('Statement file')).toHaveAttribute('aria-invalid', 'true');

  await page.getByLabel('Date order').selectOption('DMY');
  await page.getByRole('button', { name: 'Read the statement' }).click();
  await expect(page.getByRole('region', { name: /Incoming payments/ })).toBeVisible();
  await page.getByRole('button', { name: 'Back to the file' }).click();
  await expect(page.getByLabel('Bank account')).toHaveValue('Maybank current');
  await expect(page.getByLabel('Date order')).toHaveValue('DMY');
  await expect(page.getByLabel('Description', { exact: true })).toHaveValue('1');
  await expect(page.getByText('Chosen: april.csv')).toBeVisible();
});

test('identical lines of a statement: said on the screen, recorded as separate payments', async ({
  page,
}) => {
  await joinThroughApi(page);
  const created = await page.request.post('/api/clients', {
    data: {
      firstName: 'Grace',
      lastName: 'Hopper',
      email: 'grace@example.com',
      phone: '+1 202 555 0147',
      currency: 'USD',
      balance: 300_00,
    },
  });
  expect(created.status()).toBe(201);
  const grace = ((await created.json()) as { id: string }).id;
  const twins = [
    'Date,Description,Amount',
    ...Array<string>(2).fill('2026-04-05,GRACE HOPPER,50.00'),
  ];
  await page.goto('/bank');
  await page.getByLabel('Bank account').fill('Maybank current');
  await page.getByLabel('Statement file').setInputFiles({
    name: 'twins.csv',
    mimeType: 'text/csv',
    buffer: Buffer.from(twins.join('\n')),
  });
  await page.getByRole('button', { name: 'Read the statement' }).click();
  await expect(
    page.getByText(
      '2 lines are identical (same date, amount and description): they are kept as separate payments.',
    ),
  ).toBeVisible();
  const rows = page
    .getByRole('region', { name: /Incoming payments/ })
    .getByRole('row')
    .filter({ hasText: 'GRACE HOPPER' });
  await expect(rows).toHaveCount(2);
  await rows.nth(0).getByRole('checkbox').check();
  await rows.nth(1).getByRole('checkbox').check();
  await page.getByRole('button', { name: 'Record 2 payments ($100.00)' }).click();
  await expect(page.getByText('2 payments recorded, none already recorded before.')).toBeVisible();
  const client = await page.request.get(`/api/clients/${grace}`);
  expect(((await client.json()) as { balance: number }).balance).toBe(200_00);
});

// Issue 57: a Korean internet bank's Excel export, read in the page for its columns and on the
// server for its lines; 내용 is the description, 보낸분 the payer beside it.
test('an Excel statement: its columns guessed, the payer column read, a line matched', async ({
  page,
}) => {
  const { xlsxFile } = await import('../tests/xlsx.ts');
  await joinThroughApi(page);
  const response = await page.request.post('/api/clients', {
    data: {
      firstName: '민준',
      lastName: '김',
      email: 'minjun@example.com',
      phone: '+82 10 5555 0147',
      currency: 'KRW',
      balance: 0,
    },
  });
  expect(response.status()).toBe(201);
  const workbook = xlsxFile([
    ['[거래내역조회] 2026.04'],
    [],
    ['거래일시', '적요', '내용', '보낸분', '출금액', '입금액', '잔액'],
    [{ date: '2026-04-02' }, '타행입금', '4월분', 'MINJOON KIM', 0, 150_000, 1_150_000],
    [{ date: '2026-04-03' }, '출금', 'ATM', '', 20_000, 0, 1_130_000],
  ]);
  for (const language of ['ko', 'ms', 'en']) {
    const saved = await page.request.put('/api/settings/language', { data: { language } });
    expect(saved.status()).toBe(200);
    await page.goto('/bank');
    await page.locator('input[type="file"]').setInputFiles({
      name: '거래내역.xlsx',
      mimeType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
      buffer: workbook,
    });
    await expect(page.locator('table').first()).toContainText('MINJOON KIM');
    await page.screenshot({ path: `/tmp/bank-xlsx-${language}.png`, fullPage: true });
  }
  await page.getByLabel('Bank account').fill('KB 통장');
  await page
    .getByLabel('Currency')
    .selectOption('KRW')
    .catch(() => undefined);
  await expect(page.getByLabel('Description', { exact: true })).toHaveValue('2');
  await expect(page.getByLabel('Payer name', { exact: true })).toHaveValue('3');
  await expect(page.getByLabel('Credit (in)', { exact: true })).toHaveValue('5');
  await page.getByRole('button', { name: 'Read the statement' }).click();
  const table = page.getByRole('region', { name: /Incoming payments/ });
  await expect(table.getByRole('row').filter({ hasText: '4월분' })).toContainText('김민준');
  await page.screenshot({ path: '/tmp/bank-xlsx-review.png', fullPage: true });
});
