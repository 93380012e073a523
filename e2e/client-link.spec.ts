import { readFile } from 'node:fs/promises';
import { pdfText } from '../tests/pdf-text.ts';
import { expect, joinThroughApi, test, uniqueEmail } from './fixtures.ts';

test('a client link: made on the client page, opened signed out with its PDF, then revoked', async ({
  page,
  browser,
}, testInfo) => {
  await joinThroughApi(page);
  const settings = (await (await page.request.get('/api/settings')).json()) as {
    preferences: unknown;
    rates: unknown[];
    business: Record<string, string>;
  };
  const saved = await page.request.put('/api/settings', {
    data: {
      preferences: settings.preferences,
      rates: settings.rates,
      business: {
        ...settings.business,
        name: 'Hana Design Studio',
        paymentDetails: 'Maybank 5140 1234 5678',
      },
    },
  });
  expect(saved.status()).toBe(200);
  const added = await page.request.post('/api/clients', {
    data: {
      firstName: 'Aminah',
      lastName: 'Rahman',
      email: uniqueEmail('aminah'),
      phone: '+60 12 345 6789',
      balance: 0,
      currency: 'MYR',
    },
  });
  expect(added.status()).toBe(201);
  const { id } = (await added.json()) as { id: string };
  for (const data of [
    { kind: 'charge', amount: 120_000, date: '2025-03-01', reference: 'INV-7' },
    { kind: 'payment', amount: 20_000, date: '2025-03-20' },
  ]) {
    expect((await page.request.post(`/api/clients/${id}/entries`, { data })).status()).toBe(201);
  }

  await page.goto(`/client/${id}`);
  const card = page.getByRole('region', { name: 'Client link' });
  await expect(card.getByText('No link yet.')).toBeVisible();
  await card.getByRole('button', { name: 'Create link' }).click();
  const address = await card.getByLabel('Link address').inputValue();
  expect(address).toMatch(/\/c\/[\w-]{43}$/);

  // The client: another browser, never signed in, Malay chosen for them by the owner.
  await card.getByLabel("Client's language").selectOption('ms');
  await expect(card.getByLabel("Client's language")).toHaveValue('ms');
  const stranger = await browser.newContext();
  const clientPage = await stranger.newPage();
  const answer = await clientPage.goto(address);
  expect(answer?.status()).toBe(200);
  const headers = answer?.headers() ?? {};
  expect(headers['x-robots-tag']).toContain('noindex');
  expect(headers['referrer-policy']).toBe('no-referrer');
  expect(headers['set-cookie']).toBeUndefined();
  await expect(clientPage.locator('html')).toHaveAttribute('lang', 'ms');
  await expect(clientPage.getByTestId('amount-due')).toHaveText(/^RM\s?1,000\.00$/);
  await expect(clientPage.getByTestId('pay-by')).toHaveText(
    'Tertunggak sejak 1 Mac 2025: sila bayar sekarang',
  );
  await expect(clientPage.getByTestId('payment-details')).toHaveText('Maybank 5140 1234 5678');
  await expect(clientPage.getByText('INV-7')).toBeVisible();
  // Nothing of the app: no link into it, no script.
  await expect(clientPage.locator('a[href^="/client"], a[href="/"], script')).toHaveCount(0);
  await clientPage.screenshot({ path: testInfo.outputPath('client-link.png'), fullPage: true });
  // Printed, even from a screen in dark mode: the statement in dark text, without its downloads.
  await clientPage.emulateMedia({ media: 'print', colorScheme: 'dark' });
  await expect(clientPage.getByRole('link', { name: 'Muat turun PDF' })).toBeHidden();
  await expect(clientPage.getByRole('link', { name: 'Muat turun CSV' })).toBeHidden();
  await expect(clientPage.getByTestId('amount-due')).toHaveCSS('color', 'rgb(29, 33, 37)');
  await clientPage.emulateMedia({ media: 'screen', colorScheme: 'light' });

  const downloading = clientPage.waitForEvent('download');
  await clientPage.getByRole('link', { name: 'Muat turun PDF' }).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toMatch(/^statement-Aminah-Rahman-.*\.pdf$/);
  const { text } = await pdfText(await readFile((await download.path()) ?? ''));
  expect(text).toMatch(/RM\s?1,000\.00/);
  expect(text).toContain('INV-7');
  expect(await stranger.cookies()).toEqual([]);

  // The owner sees that it was opened, on the card and in the history.
  await page.reload();
  await expect(card.getByText(/^Last opened /)).toBeVisible();
  await expect(page.getByText('Client opened their link')).toBeVisible();

  await card.getByRole('button', { name: 'Revoke' }).click();
  await expect(card.getByText('No link yet.')).toBeVisible();
  const ended = await clientPage.goto(address);
  expect(ended?.status()).toBe(410);
  await expect(
    clientPage.getByText(
      'Pautan ini tidak lagi sah; minta pautan baharu daripada Hana Design Studio.',
    ),
  ).toBeVisible();
  await stranger.close();
});
