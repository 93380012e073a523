import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../../../tests/app.ts';
import { joinAs } from '../../../../tests/auth.ts';
import { buildClient } from '../../../../tests/factories.ts';
import { injectOk } from '../../../../tests/http.ts';
import { addDays, utcDay } from '../../../shared/dates.ts';
import type { Ageing, Client, ClientInput, ClientList } from '../../../shared/schemas/clients.ts';
import type { RecordedEntry } from '../../../shared/schemas/ledger.ts';

let testApp: TestApp;

beforeAll(async () => {
  testApp = await buildTestApp();
});

afterAll(async () => {
  await testApp.close();
});

const today = utcDay();
const daysAgo = (days: number) => addDays(today, -days);

const add = async (cookie: string, values: Partial<ClientInput>) =>
  (await injectOk(testApp.app, 'POST', '/api/clients', cookie, buildClient(values))).json<Client>();
const record = async (cookie: string, id: string, body: object) =>
  (
    await injectOk(testApp.app, 'POST', `/api/clients/${id}/entries`, cookie, body)
  ).json<RecordedEntry>();
const ageingOf = async (cookie: string) =>
  (await injectOk(testApp.app, 'GET', '/api/ageing', cookie)).json<Ageing>();
const list = async (cookie: string, query = '') =>
  (await injectOk(testApp.app, 'GET', `/api/clients${query}`, cookie)).json<ClientList>();

describe('ageing', () => {
  it('puts each unpaid amount in its bucket, oldest paid first, adding up to what is owed', async () => {
    const owner = await joinAs(testApp.app);
    // Ada: three charges, then a payment that settles the oldest first.
    const ada = await add(owner.cookie, { firstName: 'Ada', balance: 0, currency: 'USD' });
    await record(owner.cookie, ada.id, { kind: 'charge', amount: 10_000, date: daysAgo(100) });
    await record(owner.cookie, ada.id, {
      kind: 'charge',
      amount: 5_000,
      date: daysAgo(45),
      dueDate: daysAgo(40),
    });
    await record(owner.cookie, ada.id, {
      kind: 'charge',
      amount: 3_000,
      date: daysAgo(10),
      dueDate: addDays(today, 20),
    });
    const paid = await record(owner.cookie, ada.id, { kind: 'payment', amount: 12_000 });
    // 120.00 settles the 100.00 of 100 days ago and 20.00 of the 50.00 due 40 days ago.
    expect(paid.client).toMatchObject({ balance: 6_000, oldestDueDate: daysAgo(40) });

    // Min: paid more than owed, a credit: nothing is overdue, nothing in any bucket.
    const min = await add(owner.cookie, { firstName: 'Min', balance: 5_000, currency: 'KRW' });
    await record(owner.cookie, min.id, { kind: 'payment', amount: 8_000 });
    // Bob: a credit from the start settles a later charge.
    const bob = await add(owner.cookie, { firstName: 'Bob', balance: -500, currency: 'USD' });
    await record(owner.cookie, bob.id, { kind: 'charge', amount: 200, date: daysAgo(70) });
    // Cai: an opening balance owed from today.
    const cai = await add(owner.cookie, { firstName: 'Cai', balance: 700, currency: 'USD' });
    expect(cai.oldestDueDate).toBe(today);

    const ageing = await ageingOf(owner.cookie);
    expect(ageing).toEqual({
      asOf: today,
      currencies: [
        {
          currency: 'USD',
          owed: '6700',
          buckets: {
            current: '3700',
            days1to30: '0',
            days31to60: '3000',
            days61to90: '0',
            over90: '0',
          },
        },
      ],
    });
    // What is owed in the buckets is what the positive balances add up to.
    const all = await list(owner.cookie);
    const owed = all.clients
      .filter((client) => client.currency === 'USD' && client.balance > 0)
      .reduce((sum, client) => sum + client.balance, 0);
    expect(String(owed)).toBe(ageing.currencies[0]?.owed);

    const overdue = await list(owner.cookie, '?overdue=true');
    expect(overdue.clients.map((client) => client.firstName)).toEqual(['Ada']);
    expect(overdue).toMatchObject({
      count: 1,
      asOf: today,
      totals: [{ currency: 'USD', total: '6000' }],
    });

    // The payment bounces: everything Ada was charged is open again, the oldest 100 days overdue.
    const voided = await injectOk(
      testApp.app,
      'POST',
      `/api/clients/${ada.id}/entries/${paid.entry.entryId}/void`,
      owner.cookie,
      { reason: 'bounced' },
    );
    expect(voided.json<RecordedEntry>().client).toMatchObject({
      balance: 18_000,
      oldestDueDate: daysAgo(100),
    });
    expect((await ageingOf(owner.cookie)).currencies[0]).toMatchObject({
      owed: '18700',
      buckets: { current: '3700', days31to60: '5000', over90: '10000' },
    });
  });

  it('follows the balance set by hand and a change of currency', async () => {
    const owner = await joinAs(testApp.app);
    const client = await add(owner.cookie, { balance: 900, currency: 'USD' });
    await injectOk(testApp.app, 'PATCH', `/api/clients/${client.id}/balance`, owner.cookie, {
      balance: 0,
      previousBalance: 900,
    });
    expect((await ageingOf(owner.cookie)).currencies).toEqual([]);
    // Only an opening balance so far: its currency may still change, and what is owed with it.
    const other = await add(owner.cookie, { balance: 1_500, currency: 'USD' });
    const edited = await injectOk(testApp.app, 'PUT', `/api/clients/${other.id}`, owner.cookie, {
      ...buildClient({ balance: 4_000, currency: 'KRW' }),
      version: other.version,
    });
    expect(edited.statusCode).toBe(200);
    expect((await ageingOf(owner.cookie)).currencies).toEqual([
      {
        currency: 'KRW',
        owed: '4000',
        buckets: { current: '4000', days1to30: '0', days31to60: '0', days61to90: '0', over90: '0' },
      },
    ]);
  });

  it('stays exact past 2^63 in one bucket', async () => {
    const owner = await joinAs(testApp.app);
    // 1,000 clients at the largest balance: 9,999,999,999,999,000 minor units, past 2^53.
    await injectOk(testApp.app, 'POST', '/api/clients/import', owner.cookie, {
      rows: Array.from({ length: 1_000 }, (_, index) =>
        buildClient({
          email: `big.${index}@example.com`,
          balance: 9_999_999_999_999,
          currency: 'KRW',
        }),
      ),
      dryRun: false,
      skipDuplicates: false,
    });
    const krw = (await ageingOf(owner.cookie)).currencies[0];
    expect(krw).toMatchObject({ currency: 'KRW', owed: '9999999999999000' });
    expect(krw?.buckets.current).toBe('9999999999999000');
  });

  it('shows another owner none of it', async () => {
    const owner = await joinAs(testApp.app);
    const stranger = await joinAs(testApp.app);
    await add(owner.cookie, { balance: 100 });
    expect((await ageingOf(stranger.cookie)).currencies).toEqual([]);
  });
});
