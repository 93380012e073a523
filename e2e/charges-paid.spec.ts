import { expect, joinThroughApi, test } from './fixtures.ts';

// Issue 57: a transfer paying two of a client's charges by their references. The review names
// them under the client, checked; the confirm records the payment against them, and the client's
// ledger shows the charges paid and what the payment pays. Walked in English, Korean and Malay,
// each screen kept as a picture to look at.

const statement = [
  'Date,Description,Amount,Balance',
  '2026-04-03,IBG AHMAD RAHMAN INV-2210/2214,65.00,1065.00',
].join('\n');

// What each language says, read from the page (this machine's browser has no Hangul font, so the
// Korean pictures show boxes where the page has the words below).
const texts = {
  'en-US': {
    pays: 'Pays',
    paysOnLedger: 'Pays INV-2210 / Design work; INV-2214 / Printing',
    paid: 'Paid',
  },
  'ko-KR': {
    pays: '납부할 청구',
    paysOnLedger: 'INV-2210 / Design work; INV-2214 / Printing 납부',
    paid: '납부 완료',
  },
  'ms-MY': {
    pays: 'Membayar',
    paysOnLedger: 'Membayar INV-2210 / Design work; INV-2214 / Printing',
    paid: 'Dibayar',
  },
};

for (const locale of ['en-US', 'ko-KR', 'ms-MY'] as const) {
  test.describe(locale, () => {
    test.use({ locale });

    test('the charges a transfer pays: named in the review, paid on the ledger', async ({
      page,
    }, testInfo) => {
      await joinThroughApi(page);
      const created = await page.request.post('/api/clients', {
        data: {
          firstName: 'Ahmad',
          lastName: 'Rahman',
          email: 'ahmad@example.com',
          phone: '+60 12 555 0147',
          currency: 'USD',
          balance: 0,
        },
      });
      expect(created.status()).toBe(201);
      const client = ((await created.json()) as { id: string }).id;
      for (const [amount, date, reference, note] of [
        [100_00, '2026-01-05', 'INV-2201', 'Engine plans'],
        [40_00, '2026-03-01', 'INV-2210', 'Design work'],
        [25_00, '2026-03-20', 'INV-2214', 'Printing'],
      ] as const) {
        const charge = await page.request.post(`/api/clients/${client}/entries`, {
          data: { kind: 'charge', amount, date, reference, note },
        });
        expect(charge.status()).toBe(201);
      }

      await page.goto('/bank');
      await page.locator('input[id$="-account"]').fill('Maybank current');
      await page.locator('input[type=file]').setInputFiles({
        name: 'april.csv',
        mimeType: 'text/csv',
        buffer: Buffer.from(statement),
      });
      await page.locator('form button[type=submit]').click();
      const row = page.getByRole('row').filter({ hasText: 'INV-2210/2214' });
      const named = row.getByRole('group');
      await expect(named.getByRole('checkbox')).toHaveCount(2);
      await expect(named.getByRole('checkbox').first()).toBeChecked();
      await expect(named).toContainText('INV-2210');
      await expect(named).toContainText('INV-2214');
      await expect(named).toContainText(texts[locale].pays);
      await page.screenshot({
        path: testInfo.outputPath(`review-${locale}.png`),
        fullPage: true,
      });
      // The line itself is checked (a name and a reference: certain), then recorded.
      await expect(row.getByRole('checkbox').first()).toBeChecked();
      await page.locator('button.btn-primary').filter({ hasText: '65.00' }).click();
      await expect(page.getByRole('link', { name: 'Ahmad Rahman' })).toBeVisible();

      await page.goto(`/client/${client}`);
      const ledger = page.getByTestId('ledger-entry');
      await expect(ledger).toHaveCount(4);
      const payment = ledger.filter({ hasText: 'INV-2210 / Design work' });
      await expect(payment).toContainText('INV-2214 / Printing');
      await expect(ledger.filter({ hasText: 'Engine plans' }).locator('.badge')).toHaveCount(0);
      await expect(ledger.filter({ hasText: 'Printing' }).first().locator('.badge')).toHaveCount(1);
      await expect(payment).toContainText(texts[locale].paysOnLedger);
      await expect(ledger.filter({ hasText: 'Design work' }).first()).toContainText(
        texts[locale].paid,
      );
      await page.screenshot({
        path: testInfo.outputPath(`ledger-${locale}.png`),
        fullPage: true,
      });
    });
  });
}
