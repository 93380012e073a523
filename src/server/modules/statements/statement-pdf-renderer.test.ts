import { afterEach, expect, it } from 'vitest';
import { pdfText } from '../../../../tests/pdf-text.ts';
import { noBusiness } from '../../../shared/schemas/clients.ts';
import type { Statement } from '../../../shared/schemas/statement.ts';
import { PdfRenderer } from './statement-pdf-renderer.ts';

let renderer: PdfRenderer | undefined;

afterEach(async () => {
  await renderer?.close();
});

/** A statement of `count` charges, as readStatement answers one. */
function statementOf(count: number, reference: string): Statement {
  const lines = Array.from({ length: count }, (_, index) => ({
    id: index + 1,
    date: '2026-03-02',
    dueDate: '2026-04-01',
    kind: 'charge' as const,
    note: '',
    reference: `${reference}-${index + 1}`,
    method: null,
    amount: 1_000,
    description: `Charge: ${reference}-${index + 1}`,
    balance: String(1_000 * (index + 1)),
  }));
  return {
    period: { from: '2026-03-01', to: '2026-03-31' },
    client: {
      id: 'client-1',
      firstName: 'Ada',
      lastName: 'Lovelace',
      email: 'ada@example.com',
      phone: '+1 555 0100',
      currency: 'USD',
      ...noBusiness,
    },
    business: { name: 'Analytical Engines', address: '', paymentDetails: '', taxId: '' },
    date: '2026-03-31',
    number: 'ABC123-20260331',
    openingBalance: '0',
    lines,
    closingBalance: String(1_000 * count),
    amountDue: { amount: String(1_000 * count), overdue: '0', payBy: '2026-04-01' },
    openItems: [],
    ageing: {
      asOf: '2026-03-31',
      owed: String(1_000 * count),
      overdue: '0',
      buckets: {
        current: String(1_000 * count),
        days1to30: '0',
        days31to60: '0',
        days61to90: '0',
        over90: '0',
      },
    },
    emailConfigured: false,
  };
}

it('ends the process that made a large statement, and makes the next PDF in a new one that reads right', async () => {
  renderer = new PdfRenderer({ largeLines: 3 });
  const large = await renderer.render('owner', statementOf(5, 'BIG'), 'en');
  // Its memory went back with it: nothing is left running.
  expect(renderer.processes).toBe(0);
  const small = await renderer.render('owner', statementOf(2, 'SMALL'), 'en');
  // A small one keeps its process for the next PDF.
  expect(renderer.processes).toBe(1);
  const again = await renderer.render('owner', statementOf(1, 'AGAIN'), 'en');
  expect(renderer.processes).toBe(1);

  const largeText = (await pdfText(large)).text;
  expect(largeText).toContain('Ada Lovelace');
  for (const index of [1, 5]) expect(largeText).toContain(`BIG-${index}`);
  expect(largeText).toContain('$50.00');
  const smallText = (await pdfText(small)).text;
  expect(smallText).toContain('SMALL-2');
  expect(smallText).not.toContain('BIG-1');
  expect((await pdfText(again)).text).toContain('AGAIN-1');
});

it("answers one owner's PDFs in the order asked, each in a process of its own when large", async () => {
  renderer = new PdfRenderer({ largeLines: 3 });
  const asked = ['FIRST', 'SECOND'];
  const answered: string[] = [];
  const pdfs = await Promise.all(
    asked.map((reference) =>
      renderer!.render('owner', statementOf(4, reference), 'en').then((pdf) => {
        answered.push(reference);
        return pdf;
      }),
    ),
  );
  expect(answered).toEqual(asked);
  for (const [index, pdf] of pdfs.entries())
    expect((await pdfText(pdf)).text).toContain(`${asked[index]}-4`);
  expect(renderer.processes).toBe(0);
});
