import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../../../tests/app.ts';
import { joinAs } from '../../../../tests/auth.ts';
import { buildClient } from '../../../../tests/factories.ts';
import { injectOk } from '../../../../tests/http.ts';
import { keepSumsOfRowsWrittenByHand } from '../../../../tests/kept-sums.ts';
import { addDays, utcDay } from '../../../shared/dates.ts';
import { maxAmountMinor } from '../../../shared/money.ts';
import type { Client, ClientInput, ClientList } from '../../../shared/schemas/clients.ts';
import type { RecordedEntry } from '../../../shared/schemas/ledger.ts';
import type { Overview } from '../../../shared/schemas/overview.ts';

let testApp: TestApp;

beforeAll(async () => {
  testApp = await buildTestApp();
});

afterAll(async () => {
  await testApp.close();
});

const today = utcDay();

/** The 10th of the month `back` months before this one: a past day in that month. */
function tenthOf(back: number): string {
  const date = new Date(`${today.slice(0, 7)}-01T00:00:00Z`);
  date.setUTCMonth(date.getUTCMonth() - back);
  return addDays(utcDay(date), 9);
}
/** The last 12 months, YYYY-MM, oldest first. */
const months = Array.from({ length: 12 }, (_, index) => tenthOf(11 - index).slice(0, 7));

const add = async (cookie: string, values: Partial<ClientInput>) =>
  (await injectOk(testApp.app, 'POST', '/api/clients', cookie, buildClient(values))).json<Client>();
const record = async (cookie: string, id: string, body: object) =>
  (
    await injectOk(testApp.app, 'POST', `/api/clients/${id}/entries`, cookie, body)
  ).json<RecordedEntry>();
const overviewOf = async (cookie: string) =>
  (await injectOk(testApp.app, 'GET', '/api/overview', cookie)).json<Overview>();

// Typed as unknown, so it can sit in expected objects.
const anyText: unknown = expect.any(String);

const noBuckets = { current: '0', days1to30: '0', days31to60: '0', days61to90: '0', over90: '0' };

describe('GET /api/overview', () => {
  let owner: { cookie: string };
  let ids: Record<'ada' | 'cai' | 'min' | 'dan', string>;

  beforeAll(async () => {
    owner = await joinAs(testApp.app);
    const { cookie } = owner;
    // Ada (USD): 1,000.00 charged 14 months ago (before the chart's window), 500.00 five months
    // ago, 300.00 paid two months ago: owes 1,200.00, all of it overdue by over 90 days.
    const ada = await add(cookie, { firstName: 'Ada', balance: 0, currency: 'USD' });
    await record(cookie, ada.id, { kind: 'charge', amount: 100_000, date: tenthOf(14) });
    await record(cookie, ada.id, { kind: 'charge', amount: 50_000, date: tenthOf(5) });
    await record(cookie, ada.id, { kind: 'payment', amount: 30_000, date: tenthOf(2) });
    // Bob (USD): a credit of 25.00 from today.
    await add(cookie, { firstName: 'Bob', balance: -2_500, currency: 'USD' });
    // Cai (USD): owes 700.00 from today; a charge of 99.99 three months ago, voided today.
    const cai = await add(cookie, { firstName: 'Cai', balance: 70_000, currency: 'USD' });
    const charge = await record(cookie, cai.id, {
      kind: 'charge',
      amount: 9_999,
      date: tenthOf(3),
    });
    await injectOk(
      testApp.app,
      'POST',
      `/api/clients/${cai.id}/entries/${charge.entry.entryId}/void`,
      cookie,
      { reason: 'Charged twice' },
    );
    // Min (KRW): owes ₩5,000,000 from today.
    const min = await add(cookie, { firstName: 'Min', balance: 5_000_000, currency: 'KRW' });
    // Dan: opened at ₩3,000,000, then moved to CAD at 40.00 (the KRW opening is voided).
    const dan = await add(cookie, { firstName: 'Dan', balance: 3_000_000, currency: 'KRW' });
    await injectOk(testApp.app, 'PUT', `/api/clients/${dan.id}`, cookie, {
      ...buildClient({ firstName: 'Dan', balance: 4_000, currency: 'CAD' }),
      version: dan.version,
    });
    // Eve (CAD): a credit of 15.00.
    await add(cookie, { firstName: 'Eve', balance: -1_500, currency: 'CAD' });
    ids = { ada: ada.id, cai: cai.id, min: min.id, dan: dan.id };
  });

  it('sums what is owed apart from the credits held, per currency, with what is overdue', async () => {
    const overview = await overviewOf(owner.cookie);
    expect(overview.asOf).toBe(today);
    expect(overview.currencies).toEqual([
      {
        currency: 'KRW',
        owed: '5000000',
        credits: '0',
        clientsOwing: 1,
        clientsInCredit: 0,
        overdue: '0',
        clientsOverdue: 0,
        buckets: { ...noBuckets, current: '5000000' },
      },
      {
        currency: 'USD',
        owed: '190000',
        credits: '2500',
        clientsOwing: 2,
        clientsInCredit: 1,
        overdue: '120000',
        clientsOverdue: 1,
        buckets: { ...noBuckets, current: '70000', over90: '120000' },
      },
      {
        currency: 'CAD',
        owed: '4000',
        credits: '1500',
        clientsOwing: 1,
        clientsInCredit: 1,
        overdue: '0',
        clientsOverdue: 0,
        buckets: { ...noBuckets, current: '4000' },
      },
    ]);
  });

  it('draws the total at each month end from the ledger, ending at the Total Owed line', async () => {
    const { history } = await overviewOf(owner.cookie);
    expect(history.months).toEqual(months);
    const usd = [
      ...Array<number>(6).fill(100_000), // 11 to 6 months back: the charge before the window
      150_000, // 5 months back: +500.00
      150_000,
      159_999, // 3 months back: +99.99 (voided only today)
      129_999, // 2 months back: 300.00 paid
      129_999,
      187_500, // this month: -25.00 + 700.00 - 99.99 (the void)
    ];
    // KRW: Dan's opening and its void, both today, cancel; only Min's ₩5,000,000 is left.
    const zeros = Array<string>(11).fill('0');
    expect(history.series).toEqual([
      { currency: 'KRW', totals: [...zeros, '5000000'] },
      { currency: 'USD', totals: usd.map(String) },
      { currency: 'CAD', totals: [...zeros, '2500'] },
    ]);
    const list = (
      await injectOk(testApp.app, 'GET', '/api/clients', owner.cookie)
    ).json<ClientList>();
    expect(history.series.map((series) => series.totals.at(-1))).toEqual(
      list.totals.map((total) => total.total),
    );
  });

  it('ranks debtors within each currency without rates, and by US dollar value with them', async () => {
    const before = await overviewOf(owner.cookie);
    expect(before.largestDebtors).toEqual({
      ranking: 'currency',
      ratesDate: null,
      debtors: [
        {
          id: ids.min,
          firstName: 'Min',
          lastName: anyText,
          balance: 5_000_000,
          currency: 'KRW',
          usdValue: null,
        },
        {
          id: ids.ada,
          firstName: 'Ada',
          lastName: anyText,
          balance: 120_000,
          currency: 'USD',
          usdValue: null,
        },
        {
          id: ids.cai,
          firstName: 'Cai',
          lastName: anyText,
          balance: 70_000,
          currency: 'USD',
          usdValue: null,
        },
        {
          id: ids.dan,
          firstName: 'Dan',
          lastName: anyText,
          balance: 4_000,
          currency: 'CAD',
          usdValue: null,
        },
      ],
    });
    // A rate for KRW only: CAD cannot be compared, so the ranking stays per currency.
    await injectOk(testApp.app, 'PUT', '/api/settings', owner.cookie, {
      preferences: { disableBalanceOnAdd: false, disableBalanceOnEdit: false },
      rates: [{ currency: 'KRW', usdPerUnit: '0.00075', date: '2026-01-05' }],
    });
    expect((await overviewOf(owner.cookie)).largestDebtors.ranking).toBe('currency');
    await injectOk(testApp.app, 'PUT', '/api/settings', owner.cookie, {
      preferences: { disableBalanceOnAdd: false, disableBalanceOnEdit: false },
      rates: [
        { currency: 'KRW', usdPerUnit: '0.00075', date: '2026-01-05' },
        { currency: 'CAD', usdPerUnit: '0.74', date: '2026-01-03' },
      ],
    });
    const after = await overviewOf(owner.cookie);
    // ₩5,000,000 x 0.00075 = $3,750.00; CA$40.00 x 0.74 = $29.60.
    expect(after.largestDebtors).toMatchObject({
      ranking: 'converted',
      ratesDate: '2026-01-03',
      debtors: [
        { id: ids.min, usdValue: '375000' },
        { id: ids.ada, usdValue: '120000' },
        { id: ids.cai, usdValue: '70000' },
        { id: ids.dan, usdValue: '2960' },
      ],
    });
  });

  it('follows a payment at once', async () => {
    await overviewOf(owner.cookie);
    await record(owner.cookie, ids.cai, { kind: 'payment', amount: 20_000 });
    const overview = await overviewOf(owner.cookie);
    expect(overview.currencies.find((row) => row.currency === 'USD')).toMatchObject({
      owed: '170000',
      buckets: { current: '50000', over90: '120000' },
    });
    expect(overview.history.series.find((row) => row.currency === 'USD')?.totals.at(-1)).toBe(
      '167500',
    );
  });

  it('shows the five largest of one currency, largest first', async () => {
    const { cookie } = await joinAs(testApp.app);
    for (const balance of [300, 100, 700, 500, 200, 600, 400])
      await add(cookie, { firstName: `Owes${balance}`, balance, currency: 'MYR' });
    const { largestDebtors } = await overviewOf(cookie);
    expect(largestDebtors.ranking).toBe('currency');
    expect(largestDebtors.debtors.map((debtor) => debtor.balance)).toEqual([
      700, 600, 500, 400, 300,
    ]);
  });

  it('shows another owner nothing of this one', async () => {
    const { cookie } = await joinAs(testApp.app);
    expect(await overviewOf(cookie)).toEqual({
      asOf: today,
      currencies: [],
      largestDebtors: { ranking: 'currency', ratesDate: null, debtors: [] },
      history: { months, series: [] },
    });
  });

  it('is exact past 2^53 and past what a 64-bit sum holds', async () => {
    const { cookie, userId } = await joinAs(testApp.app);
    const db = testApp.app.db.kysely;
    const max = BigInt(maxAmountMinor);
    const huge = 2n ** 62n;
    // 1,000 clients owing the largest KRW balance since three months ago (together past 2^53),
    // and three holding credits of 2^62 since last month (together past 2^63), each balance the
    // sum of its entries as the app keeps them. Written straight into the tables: the routes
    // refuse amounts this large.
    const clients = [
      ...Array.from({ length: 1_000 }, () => ({ balance: max, date: tenthOf(3) })),
      ...Array.from({ length: 3 }, () => ({ balance: -huge, date: tenthOf(1) })),
    ].map((client, index) => ({ ...client, id: `big-${userId}-${index}` }));
    for (let start = 0; start < clients.length; start += 250) {
      const batch = clients.slice(start, start + 250);
      await sql`insert into clients (id, book_id, first_name, last_name, name_key, email, phone,
        balance, currency, version, created_at, updated_at) values ${sql.join(
          batch.map(
            (client) => sql`(${client.id}, ${userId}, 'Big', ${client.id}, ${`big ${client.id}`},
              ${`${client.id}@example.com`}, '1', ${sql.raw(client.balance.toString())}, 'KRW', 1,
              0, 0)`,
          ),
        )}`.execute(db);
      await sql`insert into entries (book_id, client_id, kind, amount, currency, occurred_on,
        created_at) values ${sql.join(
          batch.map(
            (client) => sql`(${userId}, ${client.id}, 'opening',
              ${sql.raw(client.balance.toString())}, 'KRW', ${client.date}, 0)`,
          ),
        )}`.execute(db);
    }
    // And the month figures and sums the write path keeps beside its rows.
    await keepSumsOfRowsWrittenByHand(db, userId);
    await sql`insert into ledger_months (book_id, currency, month, high, low)
      select book_id, currency, substr(occurred_on, 1, 7), sum(amount >> 32), sum(amount & 4294967295)
      from entries where book_id = ${userId} group by book_id, currency, substr(occurred_on, 1, 7)`.execute(
      db,
    );

    const overview = await overviewOf(cookie);
    expect(overview.currencies).toEqual([
      {
        currency: 'KRW',
        owed: (1_000n * max).toString(),
        credits: (3n * huge).toString(),
        clientsOwing: 1_000,
        clientsInCredit: 3,
        overdue: '0',
        clientsOverdue: 0,
        buckets: noBuckets,
      },
    ]);
    const owed = (1_000n * max).toString();
    const net = (1_000n * max - 3n * huge).toString();
    expect(overview.history.series).toEqual([
      { currency: 'KRW', totals: [...Array<string>(8).fill('0'), owed, owed, net, net] },
    ]);
    expect(overview.largestDebtors.debtors.map((debtor) => debtor.balance)).toEqual(
      Array<number>(5).fill(maxAmountMinor),
    );
  });
});
