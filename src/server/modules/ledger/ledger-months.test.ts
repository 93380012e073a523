import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../../../tests/app.ts';
import { joinAs } from '../../../../tests/auth.ts';
import { buildClient } from '../../../../tests/factories.ts';
import { injectOk } from '../../../../tests/http.ts';
import { addDays, utcDay } from '../../../shared/dates.ts';
import type { Client, ClientInput } from '../../../shared/schemas/clients.ts';
import type { RecordedEntry } from '../../../shared/schemas/ledger.ts';

let testApp: TestApp;

beforeAll(async () => {
  testApp = await buildTestApp();
});

afterAll(async () => {
  await testApp.close();
});

const today = utcDay();

const add = async (cookie: string, values: Partial<ClientInput>) =>
  (await injectOk(testApp.app, 'POST', '/api/clients', cookie, buildClient(values))).json<Client>();
const record = async (cookie: string, id: string, body: object) =>
  (
    await injectOk(testApp.app, 'POST', `/api/clients/${id}/entries`, cookie, body)
  ).json<RecordedEntry>();

type MonthTotals = Record<string, string>;

/** The owner's kept month figures, "currency month" → net change, months of no change left out. */
async function keptMonths(bookId: string): Promise<MonthTotals> {
  const rows = await testApp.app.db.kysely
    .selectFrom('ledger_months')
    .select([
      'currency',
      'month',
      sql<string>`cast(high as text)`.as('high'),
      sql<string>`cast(low as text)`.as('low'),
    ])
    .where('book_id', '=', bookId)
    .execute();
  return Object.fromEntries(
    rows
      .map((row): [string, string] => [
        `${row.currency} ${row.month}`,
        (BigInt(row.high) * 2n ** 32n + BigInt(row.low)).toString(),
      ])
      .filter(([, total]) => total !== '0'),
  );
}

/** The same figures summed afresh from the owner's entries. */
async function summedMonths(bookId: string): Promise<MonthTotals> {
  const rows = await testApp.app.db.kysely
    .selectFrom('entries')
    .select(['currency', 'occurred_on', 'amount'])
    .where('book_id', '=', bookId)
    .execute();
  const totals = new Map<string, bigint>();
  for (const row of rows) {
    const key = `${row.currency} ${row.occurred_on.slice(0, 7)}`;
    totals.set(key, (totals.get(key) ?? 0n) + BigInt(row.amount));
  }
  return Object.fromEntries(
    [...totals].filter(([, total]) => total !== 0n).map(([key, total]) => [key, total.toString()]),
  );
}

describe('the month figures the write path keeps', () => {
  it('equal a fresh sum of the entries after back-dated entries, voids, currency changes, deletions, an import and a restore', async () => {
    const owner = await joinAs(testApp.app);
    const { cookie } = owner;
    const ada = await add(cookie, { firstName: 'Ada', balance: 10_000, currency: 'USD' });
    const cai = await add(cookie, { firstName: 'Cai', balance: 0, currency: 'KRW' });
    // Back-dated into earlier months, one of them before the chart's year.
    await record(cookie, ada.id, { kind: 'charge', amount: 5_000, date: addDays(today, -400) });
    await record(cookie, ada.id, { kind: 'charge', amount: 7_000, date: addDays(today, -95) });
    const payment = await record(cookie, ada.id, {
      kind: 'payment',
      amount: 3_000,
      date: addDays(today, -40),
    });
    await record(cookie, cai.id, { kind: 'charge', amount: 90_000, date: addDays(today, -200) });
    await injectOk(
      testApp.app,
      'POST',
      `/api/clients/${ada.id}/entries/${payment.entry.entryId}/void`,
      cookie,
      { reason: 'bounced' },
    );
    // A change of currency voids the opening and opens again in the new currency.
    const min = await add(cookie, { firstName: 'Min', balance: 4_200, currency: 'MYR' });
    const edited = await injectOk(testApp.app, 'PUT', `/api/clients/${min.id}`, cookie, {
      ...buildClient({ firstName: 'Min', balance: 4_200, currency: 'CAD' }),
      version: min.version,
    });
    expect(edited.json<Client>().currency).toBe('CAD');
    await injectOk(testApp.app, 'PATCH', `/api/clients/${cai.id}/balance`, cookie, {
      balance: 1_000,
      version: (await record(cookie, cai.id, { kind: 'charge', amount: 1 })).client.version,
    });
    // A deleted client's entries go with it.
    const dan = await add(cookie, { firstName: 'Dan', balance: 0, currency: 'USD' });
    await record(cookie, dan.id, { kind: 'charge', amount: 8_800, date: addDays(today, -70) });
    await injectOk(testApp.app, 'DELETE', `/api/clients/${dan.id}`, cookie);
    await injectOk(testApp.app, 'POST', '/api/clients/import', cookie, {
      rows: [
        buildClient({ balance: 600, currency: 'USD' }),
        buildClient({ balance: -250, currency: 'KRW' }),
      ],
      dryRun: false,
      skipDuplicates: false,
    });

    const kept = await keptMonths(owner.userId);
    expect(kept).toEqual(await summedMonths(owner.userId));
    // Not empty by chance: every currency touched is there, the old one only where it nets off.
    expect(Object.keys(kept).map((key) => key.slice(0, 3))).toEqual(
      expect.arrayContaining(['USD', 'KRW', 'CAD']),
    );

    // The owner's whole file restored for another owner brings the same figures.
    const exported = await injectOk(testApp.app, 'GET', '/api/export.json', cookie);
    const other = await joinAs(testApp.app);
    const restored = await testApp.app.inject({
      method: 'POST',
      url: '/api/restore',
      headers: { cookie: other.cookie, 'content-type': 'application/json' },
      payload: exported.body,
    });
    expect(restored.statusCode).toBe(200);
    expect(await keptMonths(other.userId)).toEqual(kept);
  });
});
