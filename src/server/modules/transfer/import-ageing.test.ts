import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../../../tests/app.ts';
import { joinAs } from '../../../../tests/auth.ts';
import { injectOk } from '../../../../tests/http.ts';
import { addDays, utcDay } from '../../../shared/dates.ts';
import type { Ageing, ClientInput, ImportResult } from '../../../shared/schemas/clients.ts';
import type { Overview } from '../../../shared/schemas/overview.ts';
import { bucketBounds } from '../ledger/ageing.ts';

let testApp: TestApp;

beforeAll(async () => {
  testApp = await buildTestApp();
});

afterAll(async () => {
  await testApp.close();
});

const today = utcDay();

/**
 * 10,000 clients in won brought in with their balances as of days over the past year, most
 * with a due date a month after, some without (due on their date), some with no date at all
 * (as of today), a few in credit or owing nothing.
 */
function importRows(): ClientInput[] {
  return Array.from({ length: 10_000 }, (_, i) => {
    const row: ClientInput = {
      firstName: 'Min',
      lastName: `Kim${i}`,
      email: `kim.${i}@example.com`,
      phone: '010-1234-5678',
      currency: 'KRW',
      balance: i % 97 === 0 ? -50_000 : i % 89 === 0 ? 0 : 60_000 + ((i * 7_919) % 620_000),
    };
    if (i % 50 === 0) return row;
    row.openingDate = addDays(today, -(i % 366));
    if (i % 3 !== 0) row.openingDueDate = addDays(row.openingDate, 30);
    if (i % 7 === 0) row.openingReference = `INV-${i}`;
    return row;
  });
}

/** What the overview and the ageing must say, counted from the rows themselves. */
function handCount(rows: readonly ClientInput[]) {
  const bounds = bucketBounds(today);
  const buckets = { current: 0, days1to30: 0, days31to60: 0, days61to90: 0, over90: 0 };
  let owed = 0;
  let overdue = 0;
  let clientsOverdue = 0;
  for (const row of rows) {
    const balance = row.balance ?? 0;
    if (balance <= 0) continue;
    owed += balance;
    const due = row.openingDueDate ?? row.openingDate ?? today;
    if (due >= today) buckets.current += balance;
    else {
      overdue += balance;
      clientsOverdue += 1;
      if (due >= bounds.days1to30) buckets.days1to30 += balance;
      else if (due >= bounds.days31to60) buckets.days31to60 += balance;
      else if (due >= bounds.days61to90) buckets.days61to90 += balance;
      else buckets.over90 += balance;
    }
  }
  const text = (amounts: typeof buckets) =>
    Object.fromEntries(Object.entries(amounts).map(([name, sum]) => [name, String(sum)]));
  return { owed: String(owed), overdue: String(overdue), clientsOverdue, buckets: text(buckets) };
}

describe('balances brought in by an import', () => {
  it('age by their own due dates: the overview and the ageing match a count from the rows', async () => {
    const owner = await joinAs(testApp.app);
    const rows = importRows();
    const imported = await injectOk(testApp.app, 'POST', '/api/clients/import', owner.cookie, {
      rows,
      dryRun: false,
      skipDuplicates: false,
    });
    expect(imported.json<ImportResult>().imported).toBe(rows.length);
    const expected = handCount(rows);
    // Spread over a year, most of it is overdue, and every bucket holds something.
    expect(expected.clientsOverdue).toBeGreaterThan(8_000);
    expect(Object.values(expected.buckets).every((sum) => sum !== '0')).toBe(true);

    const overview = (
      await injectOk(testApp.app, 'GET', '/api/overview', owner.cookie)
    ).json<Overview>();
    expect(overview.currencies).toEqual([
      expect.objectContaining({
        currency: 'KRW',
        owed: expected.owed,
        overdue: expected.overdue,
        clientsOverdue: expected.clientsOverdue,
        buckets: expected.buckets,
      }),
    ]);
    const ageing = (await injectOk(testApp.app, 'GET', '/api/ageing', owner.cookie)).json<Ageing>();
    expect(ageing.currencies).toEqual([
      { currency: 'KRW', owed: expected.owed, buckets: expected.buckets },
    ]);
  });

  it('refuses a row whose balance is dated in the future or due before its date, naming the field', async () => {
    const owner = await joinAs(testApp.app);
    const row = (values: Partial<ClientInput>, i: number): ClientInput => ({
      firstName: 'Ada',
      lastName: 'Lovelace',
      email: `ada.${i}@example.com`,
      phone: '+44 20 7946 0018',
      currency: 'USD',
      balance: 1_000,
      ...values,
    });
    const answer = await injectOk(testApp.app, 'POST', '/api/clients/import', owner.cookie, {
      rows: [
        row({ openingDate: addDays(today, 5) }, 0),
        row({ openingDate: '2026-03-10', openingDueDate: '2026-03-01' }, 1),
        row({ openingDueDate: addDays(today, -1) }, 2),
        row({ openingDate: '2026-02-30' }, 3),
        row({ openingDate: '2026-03-01', openingDueDate: '2026-04-01' }, 4),
      ],
      dryRun: true,
      skipDuplicates: false,
    });
    expect(answer.json<ImportResult>().results).toEqual([
      { row: 0, status: 'invalid', errors: { openingDate: 'The date cannot be in the future.' } },
      {
        row: 1,
        status: 'invalid',
        errors: { openingDueDate: 'The due date cannot be before the date of the balance.' },
      },
      {
        row: 2,
        status: 'invalid',
        errors: { openingDueDate: 'The due date cannot be before the date of the balance.' },
      },
      { row: 3, status: 'invalid', errors: { openingDate: 'Enter a date as YYYY-MM-DD.' } },
      { row: 4, status: 'ok' },
    ]);
  });
});
