import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../../../tests/app.ts';
import { joinAs } from '../../../../tests/auth.ts';
import { buildClient, buildEventRow } from '../../../../tests/factories.ts';
import { injectOk } from '../../../../tests/http.ts';
import { addDays, utcDay } from '../../../shared/dates.ts';
import type { Client, ClientInput } from '../../../shared/schemas/clients.ts';
import type { HistoryEntry } from '../../../shared/schemas/events.ts';
import type { Entry, RecordedEntry } from '../../../shared/schemas/ledger.ts';
import { exportVersion } from '../../../shared/schemas/restore.ts';

let testApp: TestApp;

beforeAll(async () => {
  testApp = await buildTestApp();
});

afterAll(async () => {
  await testApp.close();
});

const call = (
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE',
  url: string,
  cookie: string,
  payload?: object,
) => testApp.app.inject({ method, url, headers: { cookie }, ...(payload ? { payload } : {}) });

const add = async (cookie: string, values: Partial<ClientInput> = {}) =>
  (await injectOk(testApp.app, 'POST', '/api/clients', cookie, buildClient(values))).json<Client>();

const read = async (cookie: string, id: string) =>
  (await injectOk(testApp.app, 'GET', `/api/clients/${id}`, cookie)).json<Client>();

const entriesPage = async (cookie: string, id: string, query = '') =>
  (await injectOk(testApp.app, 'GET', `/api/clients/${id}/entries${query}`, cookie)).json<{
    entries: Entry[];
    nextCursor: string | null;
  }>();

/** The whole ledger in the server's order, oldest first, read page by page back from the newest. */
const entriesOf = async (cookie: string, id: string) => {
  const pages: Entry[][] = [];
  let cursor: string | null = null;
  do {
    const page = await entriesPage(cookie, id, `?limit=500${cursor ? `&cursor=${cursor}` : ''}`);
    pages.unshift(page.entries);
    cursor = page.nextCursor;
  } while (cursor);
  return pages.flat();
};

const historyOf = async (cookie: string, id: string) =>
  (await injectOk(testApp.app, 'GET', `/api/clients/${id}/history`, cookie)).json<{
    entries: HistoryEntry[];
  }>().entries;

const record = async (cookie: string, id: string, body: object) =>
  (
    await injectOk(testApp.app, 'POST', `/api/clients/${id}/entries`, cookie, body)
  ).json<RecordedEntry>();

const setPreferences = (
  cookie: string,
  disableBalanceOnAdd: boolean,
  disableBalanceOnEdit: boolean,
) =>
  injectOk(testApp.app, 'PUT', '/api/settings', cookie, {
    preferences: { disableBalanceOnAdd, disableBalanceOnEdit },
    rates: [],
  });

describe('recording payments, charges and credits', () => {
  it('moves the balance by each entry and lists them oldest first with a running balance', async () => {
    const owner = await joinAs(testApp.app);
    const today = utcDay();
    const client = await add(owner.cookie, { balance: 50_000, currency: 'USD' });

    const charge = await record(owner.cookie, client.id, {
      kind: 'charge',
      amount: 12_000,
      date: addDays(today, -50),
      dueDate: addDays(today, -20),
      note: 'Invoice 41',
    });
    expect(charge.client.balance).toBe(62_000);
    expect(charge.entry).toMatchObject({ kind: 'charge', amount: 12_000, currency: 'USD' });
    const payment = await record(owner.cookie, client.id, {
      kind: 'payment',
      amount: 20_000,
      date: addDays(today, -19),
      note: 'ref 123',
    });
    expect(payment.client.balance).toBe(42_000);
    const credit = await record(owner.cookie, client.id, { kind: 'credit', amount: 2_000 });
    expect(credit.client).toMatchObject({ balance: 40_000, version: client.version + 3 });
    expect(await read(owner.cookie, client.id)).toMatchObject({ balance: 40_000 });

    const entries = await entriesOf(owner.cookie, client.id);
    // Oldest first by date, then as entered (the opening is dated today, before the credit).
    expect(
      entries.map(({ kind, amount, date, dueDate, note, runningBalance }) => ({
        kind,
        amount,
        date,
        dueDate,
        note,
        runningBalance,
      })),
    ).toEqual([
      {
        kind: 'charge',
        amount: 12_000,
        date: addDays(today, -50),
        dueDate: addDays(today, -20),
        note: 'Invoice 41',
        runningBalance: '12000',
      },
      {
        kind: 'payment',
        amount: -20_000,
        date: addDays(today, -19),
        dueDate: null,
        note: 'ref 123',
        runningBalance: '-8000',
      },
      {
        kind: 'opening',
        amount: 50_000,
        date: today,
        dueDate: null,
        note: '',
        runningBalance: '42000',
      },
      {
        kind: 'credit',
        amount: -2_000,
        date: today,
        dueDate: null,
        note: '',
        runningBalance: '40000',
      },
    ]);
    expect(entries.every((entry) => entry.enteredBy === owner.email)).toBe(true);
  });

  it('orders a back-dated payment by its date, and the running balance with it', async () => {
    const owner = await joinAs(testApp.app);
    const client = await add(owner.cookie, { balance: 0, currency: 'KRW' });
    await record(owner.cookie, client.id, { kind: 'charge', amount: 300_000, date: '2026-01-10' });
    await record(owner.cookie, client.id, { kind: 'charge', amount: 100_000, date: '2026-03-01' });
    await record(owner.cookie, client.id, { kind: 'payment', amount: 50_000, date: '2026-02-01' });
    const entries = await entriesOf(owner.cookie, client.id);
    expect(entries.map((entry) => [entry.date, entry.amount, entry.runningBalance])).toEqual([
      ['2026-01-10', 300_000, '300000'],
      ['2026-02-01', -50_000, '250000'],
      ['2026-03-01', 100_000, '350000'],
    ]);
    expect((await read(owner.cookie, client.id)).balance).toBe(350_000);
  });

  it('keeps each change in the history with the entry it recorded', async () => {
    const owner = await joinAs(testApp.app);
    const client = await add(owner.cookie, { balance: 1_000, currency: 'CAD' });
    await record(owner.cookie, client.id, { kind: 'payment', amount: 400, note: 'cash' });
    const [latest, created] = await historyOf(owner.cookie, client.id);
    expect(latest).toMatchObject({
      action: 'entry_recorded',
      before: { balance: 1_000 },
      after: { balance: 600 },
      entry: { kind: 'payment', amount: -400, currency: 'CAD', note: 'cash', voidOf: null },
    });
    expect(created).toMatchObject({ action: 'created', entry: { kind: 'opening', amount: 1_000 } });
  });

  it("keeps each payment's method, none when none is given, and none on a charge", async () => {
    const owner = await joinAs(testApp.app);
    const client = await add(owner.cookie, { balance: 10_000, currency: 'KRW' });
    const cash = await record(owner.cookie, client.id, {
      kind: 'payment',
      amount: 1_000,
      method: 'cash',
    });
    expect(cash.entry).toMatchObject({ kind: 'payment', method: 'cash' });
    await record(owner.cookie, client.id, { kind: 'payment', amount: 2_000 });
    await record(owner.cookie, client.id, { kind: 'charge', amount: 500 });
    await record(owner.cookie, client.id, { kind: 'credit', amount: 100 });
    const entries = await entriesOf(owner.cookie, client.id);
    expect(entries.map((entry) => [entry.kind, entry.method])).toEqual([
      ['opening', null],
      ['payment', 'cash'],
      ['payment', null],
      ['charge', null],
      ['credit', null],
    ]);
    const [, , , cashPayment] = await historyOf(owner.cookie, client.id);
    expect(cashPayment).toMatchObject({ entry: { kind: 'payment', method: 'cash' } });
    // A void of a payment is no payment: it has no method.
    await injectOk(
      testApp.app,
      'POST',
      `/api/clients/${client.id}/entries/${cash.entry.entryId}/void`,
      owner.cookie,
      { reason: 'typed twice' },
    );
    const voided = await entriesOf(owner.cookie, client.id);
    expect(voided.at(-1)).toMatchObject({ kind: 'void', method: null });
  });

  it.each([
    [{ kind: 'payment', amount: 0 }, 'amount', 'Enter an amount above 0.'],
    [{ kind: 'payment', amount: -5 }, 'amount', 'Enter an amount above 0.'],
    [{ kind: 'payment', amount: 1.5 }, 'amount', 'Send a whole number of minor units.'],
    [{ kind: 'payment', amount: 10_000_000_000_000 }, 'amount', 'This amount is too large.'],
    [{ kind: 'refund', amount: 5 }, 'kind', 'Choose charge, payment or credit.'],
    [{ kind: 'opening', amount: 5 }, 'kind', 'Choose charge, payment or credit.'],
    [{ kind: 'payment', amount: 5, date: '2026-02-30' }, 'date', 'Enter a date as YYYY-MM-DD.'],
    [{ kind: 'payment', amount: 5, date: '03/11/2026' }, 'date', 'Enter a date as YYYY-MM-DD.'],
    [
      { kind: 'payment', amount: 5, dueDate: '2026-12-01' },
      'dueDate',
      'Only a charge has a due date.',
    ],
    [
      { kind: 'charge', amount: 5, date: '2026-05-02', dueDate: '2026-05-01' },
      'dueDate',
      'The due date cannot be before the date of the charge.',
    ],
    [{ kind: 'payment', amount: 5, note: 'x'.repeat(201) }, 'note', 'Use at most 200 characters.'],
    [{ kind: 'payment', amount: 5, note: 'a\u0000b' }, 'note', 'Remove the control characters.'],
    [
      { kind: 'payment', amount: 5, date: addDays(utcDay(), 3) },
      'date',
      'The date cannot be in the future.',
    ],
    [{ kind: 'payment', amount: 5, date: '1899-12-31' }, 'date', 'Use a date in 1900 or later.'],
    [
      { kind: 'payment', amount: 5, method: 'crypto' },
      'method',
      'Use one of cash, bank_transfer, card, cheque, other.',
    ],
    [{ kind: 'charge', amount: 5, method: 'cash' }, 'method', 'Only a payment has a method.'],
    [{ kind: 'credit', amount: 5, method: 'card' }, 'method', 'Only a payment has a method.'],
  ])('refuses %j, naming %s, and records nothing', async (body, field, message) => {
    const owner = await joinAs(testApp.app);
    const client = await add(owner.cookie, { balance: 100 });
    const response = await call('POST', `/api/clients/${client.id}/entries`, owner.cookie, body);
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({
      error: { code: 'validation', fields: { [field]: message } },
    });
    expect(await entriesOf(owner.cookie, client.id)).toHaveLength(1);
    expect(await read(owner.cookie, client.id)).toMatchObject({ balance: 100, version: 1 });
  });

  it('refuses an entry that would take the balance past what one amount may be', async () => {
    const owner = await joinAs(testApp.app);
    const client = await add(owner.cookie, { balance: 9_999_999_999_999, currency: 'KRW' });
    const response = await call('POST', `/api/clients/${client.id}/entries`, owner.cookie, {
      kind: 'charge',
      amount: 1,
    });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({
      error: { fields: { amount: 'The balance would be too large.' } },
    });
    expect(await read(owner.cookie, client.id)).toMatchObject({ balance: 9_999_999_999_999 });
    expect(await entriesOf(owner.cookie, client.id)).toHaveLength(1);
  });

  it('answers 404 for another owner’s client, exactly as for a missing one', async () => {
    const owner = await joinAs(testApp.app);
    const stranger = await joinAs(testApp.app);
    const client = await add(owner.cookie);
    for (const id of [client.id, 'AAAAAAAAAAAAAAAAAAAAAA']) {
      const posted = await call('POST', `/api/clients/${id}/entries`, stranger.cookie, {
        kind: 'payment',
        amount: 5,
      });
      const listed = await call('GET', `/api/clients/${id}/entries`, stranger.cookie);
      for (const response of [posted, listed]) {
        expect(response.statusCode).toBe(404);
        expect(response.json()).toEqual({
          error: { code: 'not_found', message: 'Client not found' },
        });
      }
    }
    expect(await entriesOf(owner.cookie, client.id)).toHaveLength(1);
  });

  it('lands 100 payments sent at once on one client: none lost, balance = sum', async () => {
    const owner = await joinAs(testApp.app);
    const client = await add(owner.cookie, { balance: 1_000_000, currency: 'USD' });
    const responses = await Promise.all(
      Array.from({ length: 100 }, (_, index) =>
        call('POST', `/api/clients/${client.id}/entries`, owner.cookie, {
          kind: 'payment',
          amount: index + 1,
          note: `payment ${index + 1}`,
        }),
      ),
    );
    expect(responses.map((response) => response.statusCode)).toEqual(Array(100).fill(201));
    const entries = await entriesOf(owner.cookie, client.id);
    expect(entries).toHaveLength(101);
    const current = await read(owner.cookie, client.id);
    expect(current.balance).toBe(1_000_000 - (100 * 101) / 2);
    expect(current.balance).toBe(entries.reduce((sum, entry) => sum + entry.amount, 0));
    expect(current.version).toBe(101);
    // Every one of them is in the history, with the balance before and after it.
    const history = await historyOf(owner.cookie, client.id);
    expect(history.filter((event) => event.action === 'entry_recorded')).toHaveLength(100);
    for (const event of history.filter((candidate) => candidate.entry?.kind === 'payment'))
      expect((event.before?.balance ?? 0) + (event.entry?.amount ?? 0)).toBe(event.after?.balance);
  });
});

describe('voiding an entry', () => {
  it('adds a reversing entry with the reason and marks the original voided', async () => {
    const owner = await joinAs(testApp.app);
    const client = await add(owner.cookie, { balance: 0, currency: 'MYR' });
    const { entry } = await record(owner.cookie, client.id, { kind: 'payment', amount: 2_500 });
    const response = await call(
      'POST',
      `/api/clients/${client.id}/entries/${entry.entryId}/void`,
      owner.cookie,
      { reason: '  Bounced cheque  ' },
    );
    expect(response.statusCode).toBe(201);
    const voided = response.json<RecordedEntry>();
    expect(voided.client.balance).toBe(0);
    expect(voided.entry).toMatchObject({
      kind: 'void',
      amount: 2_500,
      note: 'Bounced cheque',
      voidOf: entry.entryId,
    });
    // The pair moves nothing: neither carries a running balance.
    const [original, voidEntry] = await entriesOf(owner.cookie, client.id);
    expect(voidEntry).toMatchObject({ kind: 'void', voidOf: entry.entryId, runningBalance: null });
    expect(original).toMatchObject({
      id: entry.entryId,
      voidedBy: voidEntry?.id,
      runningBalance: null,
    });
    expect((await historyOf(owner.cookie, client.id))[0]).toMatchObject({
      action: 'entry_voided',
      entry: { kind: 'void', voidOf: entry.entryId, note: 'Bounced cheque' },
    });
  });

  it('voids an entry once: a second void, or a void of a void, is a conflict', async () => {
    const owner = await joinAs(testApp.app);
    const client = await add(owner.cookie, { balance: 700 });
    const [opening] = await entriesOf(owner.cookie, client.id);
    const url = `/api/clients/${client.id}/entries/${opening?.id}/void`;
    const [first, second] = await Promise.all([
      call('POST', url, owner.cookie, { reason: 'typo' }),
      call('POST', url, owner.cookie, { reason: 'typo again' }),
    ]);
    expect([first.statusCode, second.statusCode].sort()).toEqual([201, 409]);
    const again = await call('POST', url, owner.cookie, { reason: 'once more' });
    expect(again.json()).toEqual({
      error: { code: 'conflict', message: 'This entry has already been voided' },
    });
    const voidId = (await entriesOf(owner.cookie, client.id)).at(-1)?.id;
    const ofVoid = await call(
      'POST',
      `/api/clients/${client.id}/entries/${voidId}/void`,
      owner.cookie,
      { reason: 'undo' },
    );
    expect(ofVoid.statusCode).toBe(409);
    expect(await read(owner.cookie, client.id)).toMatchObject({ balance: 0 });
    expect(await entriesOf(owner.cookie, client.id)).toHaveLength(2);
  });

  it('asks for a reason, and finds no entry of another client or owner', async () => {
    const owner = await joinAs(testApp.app);
    const stranger = await joinAs(testApp.app);
    const client = await add(owner.cookie, { balance: 700 });
    const other = await add(owner.cookie, { balance: 300 });
    const [opening] = await entriesOf(owner.cookie, client.id);
    const noReason = await call(
      'POST',
      `/api/clients/${client.id}/entries/${opening?.id}/void`,
      owner.cookie,
      { reason: '   ' },
    );
    expect(noReason.statusCode).toBe(400);
    expect(noReason.json()).toMatchObject({ error: { fields: { reason: 'Enter a reason.' } } });
    for (const [cookie, clientId, entryId] of [
      [owner.cookie, other.id, String(opening?.id)],
      [stranger.cookie, client.id, String(opening?.id)],
      [owner.cookie, client.id, '999999999'],
      [owner.cookie, client.id, 'abc'],
    ] as const) {
      const response = await call(
        'POST',
        `/api/clients/${clientId}/entries/${entryId}/void`,
        cookie,
        { reason: 'not mine' },
      );
      expect(response.statusCode).toBe(404);
    }
    expect(await read(owner.cookie, client.id)).toMatchObject({ balance: 700, version: 1 });
  });
});

describe('the balance set by hand', () => {
  it('records the difference as an adjustment, against the balance the user started from', async () => {
    const owner = await joinAs(testApp.app);
    const client = await add(owner.cookie, { balance: 10_000, currency: 'USD' });
    const set = await call('PATCH', `/api/clients/${client.id}/balance`, owner.cookie, {
      balance: 7_500,
      previousBalance: 10_000,
    });
    expect(set.statusCode).toBe(200);
    expect(set.json<Client>()).toMatchObject({ balance: 7_500, version: 2 });
    expect((await entriesOf(owner.cookie, client.id)).at(-1)).toMatchObject({
      kind: 'adjustment',
      amount: -2_500,
      runningBalance: '7500',
    });
    expect((await historyOf(owner.cookie, client.id))[0]).toMatchObject({
      action: 'balance_changed',
      before: { balance: 10_000 },
      after: { balance: 7_500 },
      entry: { kind: 'adjustment', amount: -2_500 },
    });
  });

  it('refuses with a conflict when another tab changed the balance meanwhile', async () => {
    const owner = await joinAs(testApp.app);
    const client = await add(owner.cookie, { balance: 10_000 });
    // The other tab records a payment after this one opened the pencil at 100.00.
    await record(owner.cookie, client.id, { kind: 'payment', amount: 4_000 });
    const stale = await call('PATCH', `/api/clients/${client.id}/balance`, owner.cookie, {
      balance: 9_000,
      previousBalance: 10_000,
    });
    expect(stale.statusCode).toBe(409);
    expect(stale.json()).toMatchObject({ error: { code: 'conflict' } });
    expect(await read(owner.cookie, client.id)).toMatchObject({ balance: 6_000 });
    expect(await entriesOf(owner.cookie, client.id)).toHaveLength(2);
  });

  it('records nothing when the balance is unchanged', async () => {
    const owner = await joinAs(testApp.app);
    const client = await add(owner.cookie, { balance: 500 });
    const same = await injectOk(
      testApp.app,
      'PATCH',
      `/api/clients/${client.id}/balance`,
      owner.cookie,
      {
        balance: 500,
        previousBalance: 500,
      },
    );
    expect(same.json<Client>()).toMatchObject({ balance: 500, version: 1 });
    expect(await historyOf(owner.cookie, client.id)).toHaveLength(1);
  });

  it('is refused while "disable balance on edit" is on; payments still land', async () => {
    const owner = await joinAs(testApp.app);
    const client = await add(owner.cookie, { balance: 500 });
    await setPreferences(owner.cookie, false, true);
    const refused = await call('PATCH', `/api/clients/${client.id}/balance`, owner.cookie, {
      balance: 100,
      previousBalance: 500,
    });
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toEqual({
      error: { code: 'forbidden', message: 'Changing the balance is turned off in Settings' },
    });
    await record(owner.cookie, client.id, { kind: 'payment', amount: 200 });
    expect(await read(owner.cookie, client.id)).toMatchObject({ balance: 300 });
  });
});

describe('the client form and the ledger', () => {
  it('records a new balance on the edit form as an adjustment of the difference', async () => {
    const owner = await joinAs(testApp.app);
    const client = await add(owner.cookie, { balance: 1_000, currency: 'USD' });
    const edited = await injectOk(testApp.app, 'PUT', `/api/clients/${client.id}`, owner.cookie, {
      ...buildClient({ balance: 1_750, currency: 'USD' }),
      version: client.version,
    });
    expect(edited.json<Client>().balance).toBe(1_750);
    expect(
      (await entriesOf(owner.cookie, client.id)).map((entry) => [entry.kind, entry.amount]),
    ).toEqual([
      ['opening', 1_000],
      ['adjustment', 750],
    ]);
  });

  it('lets the currency change while only the opening balance is recorded, opening it again', async () => {
    const owner = await joinAs(testApp.app);
    const client = await add(owner.cookie, { balance: 10_000, currency: 'USD' });
    const edited = await injectOk(testApp.app, 'PUT', `/api/clients/${client.id}`, owner.cookie, {
      ...buildClient({ balance: 130_000, currency: 'KRW' }),
      version: client.version,
    });
    expect(edited.json<Client>()).toMatchObject({ balance: 130_000, currency: 'KRW' });
    const entries = await entriesOf(owner.cookie, client.id);
    expect(
      entries.map((entry) => [entry.kind, entry.amount, entry.currency, entry.runningBalance]),
    ).toEqual([
      ['opening', 10_000, 'USD', null],
      ['void', -10_000, 'USD', null],
      ['opening', 130_000, 'KRW', '130000'],
    ]);
    expect(entries[1]?.note).toBe('Currency changed to KRW');
    // Still only openings and their voids: it may change again.
    const again = await call('PUT', `/api/clients/${client.id}`, owner.cookie, {
      ...buildClient({ balance: 0, currency: 'MYR' }),
      version: client.version + 1,
    });
    expect(again.statusCode).toBe(200);
    expect(await read(owner.cookie, client.id)).toMatchObject({ balance: 0, currency: 'MYR' });
  });

  it('keeps the currency once a payment is recorded, and says why', async () => {
    const owner = await joinAs(testApp.app);
    const client = await add(owner.cookie, { balance: 10_000, currency: 'USD' });
    const { client: paid } = await record(owner.cookie, client.id, { kind: 'payment', amount: 1 });
    const response = await call('PUT', `/api/clients/${client.id}`, owner.cookie, {
      ...buildClient({ balance: 9_999, currency: 'CAD' }),
      version: paid.version,
    });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({
      error: {
        code: 'validation',
        fields: {
          currency: 'cannot change once payments, charges, credits or adjustments are recorded',
        },
      },
    });
    expect(await read(owner.cookie, client.id)).toMatchObject({ currency: 'USD', balance: 9_999 });
  });

  it('opens no balance while "disable balance on add" is on', async () => {
    const owner = await joinAs(testApp.app);
    await setPreferences(owner.cookie, true, false);
    const client = await add(owner.cookie, { balance: 4_200 });
    expect(client.balance).toBe(0);
    expect(await entriesOf(owner.cookie, client.id)).toEqual([]);
  });

  it('removes the ledger with the client and keeps the history', async () => {
    const owner = await joinAs(testApp.app);
    const client = await add(owner.cookie, { balance: 900 });
    await record(owner.cookie, client.id, { kind: 'charge', amount: 100 });
    await injectOk(testApp.app, 'DELETE', `/api/clients/${client.id}`, owner.cookie);
    const left = await testApp.app.db.kysely
      .selectFrom('entries')
      .select('id')
      .where('client_id', '=', client.id)
      .execute();
    expect(left).toEqual([]);
    expect((await call('GET', `/api/clients/${client.id}/entries`, owner.cookie)).statusCode).toBe(
      404,
    );
    expect((await historyOf(owner.cookie, client.id)).map((event) => event.action)).toEqual([
      'deleted',
      'entry_recorded',
      'created',
    ]);
  });

  it('gives each imported balance an opening entry', async () => {
    const owner = await joinAs(testApp.app);
    await injectOk(testApp.app, 'POST', '/api/clients/import', owner.cookie, {
      rows: [
        buildClient({ email: 'imp.one@example.com', balance: 1_500, currency: 'CAD' }),
        buildClient({ email: 'imp.two@example.com', balance: 0 }),
      ],
      dryRun: false,
      skipDuplicates: false,
    });
    const rows = await testApp.app.db.kysely
      .selectFrom('entries')
      .innerJoin('clients', 'clients.id', 'entries.client_id')
      .select(['clients.email', 'entries.kind', 'entries.amount', 'entries.currency'])
      .where('entries.book_id', '=', owner.userId)
      .execute();
    expect(rows).toEqual([
      { email: 'imp.one@example.com', kind: 'opening', amount: 1_500, currency: 'CAD' },
    ]);
  });
});

describe('the history of changes this version does not know', () => {
  it('is still answered, for the screen to show generically', async () => {
    const owner = await joinAs(testApp.app);
    const client = await add(owner.cookie);
    await testApp.app.db.kysely
      .insertInto('events')
      .values(
        // As a newer version of Balance might have written it.
        buildEventRow(owner.userId, client.id, 'invoice_sent' as 'created', {
          version: client.version,
        }),
      )
      .execute();
    const history = await historyOf(owner.cookie, client.id);
    expect(history[0]).toMatchObject({ action: 'invoice_sent', entry: null });
  });
});

describe('exports', () => {
  it('carry the ledger: every entry in the JSON export and in the entries CSV', async () => {
    const owner = await joinAs(testApp.app);
    const paidOn = addDays(utcDay(), -19);
    const openedOn = addDays(utcDay(), -30);
    const client = await add(owner.cookie, {
      firstName: 'Ji-woo',
      lastName: '=Kim',
      balance: 30_000,
      currency: 'KRW',
      openingDate: openedOn,
      openingReference: 'B/F',
    });
    const { entry: payment } = await record(owner.cookie, client.id, {
      kind: 'payment',
      amount: 5_000,
      date: paidOn,
      note: 'thank you',
      reference: '=CHQ 123',
      method: 'cheque',
    });
    const exported = (await injectOk(testApp.app, 'GET', '/api/export.json', owner.cookie)).json<{
      version: number;
      entries: {
        clientId: string;
        kind: string;
        amount: number;
        note: string;
        date: string;
        method?: string | null;
      }[];
    }>();
    expect(exported.version).toBe(exportVersion);
    expect(
      exported.entries.map(({ clientId, kind, amount, note, date, method }) => ({
        clientId,
        kind,
        amount,
        note,
        date,
        method,
      })),
    ).toEqual([
      {
        clientId: client.id,
        kind: 'opening',
        amount: 30_000,
        note: '',
        date: openedOn,
        method: undefined,
      },
      {
        clientId: client.id,
        kind: 'payment',
        amount: -5_000,
        note: 'thank you',
        date: paidOn,
        method: 'cheque',
      },
    ]);

    const csv = await injectOk(testApp.app, 'GET', '/api/entries/export.csv', owner.cookie);
    expect(csv.headers['content-type']).toBe('text/csv; charset=utf-8');
    const lines = csv.body.replace('\uFEFF', '').trim().split(/\r?\n/);
    expect(lines).toEqual([
      'First name,Last name,Email,Date,Kind,Amount,Currency,Due date,Reference,Note,Entry,Voids entry,Method',
      `Ji-woo,'=Kim,${client.email},${openedOn},Opening balance,30000,KRW,,B/F,,${payment.entryId - 1},,`,
      `Ji-woo,'=Kim,${client.email},${paidOn},Payment,-5000,KRW,,'=CHQ 123,thank you,${payment.entryId},,Cheque`,
    ]);
  });
});

describe('opening balances', () => {
  it('are dated as of the day given and due on it, or on their due date, and sort by their date', async () => {
    const owner = await joinAs(testApp.app);
    const today = utcDay();
    const client = await add(owner.cookie, {
      balance: 100_00,
      currency: 'USD',
      openingDate: addDays(today, -60),
      openingDueDate: addDays(today, -45),
      openingReference: 'Brought forward',
    });
    // Owed since its due day, 45 days ago: overdue now, not "current" as typed today.
    expect(client.oldestDueDate).toBe(addDays(today, -45));
    await record(owner.cookie, client.id, {
      kind: 'charge',
      amount: 20_00,
      date: addDays(today, -50),
      reference: 'INV-0042',
    });
    await record(owner.cookie, client.id, { kind: 'charge', amount: 5_00 });
    // Oldest first: the back-dated charge comes after the opening balance, which is older.
    const entries = await entriesOf(owner.cookie, client.id);
    expect(
      entries.map((entry) => [entry.kind, entry.date, entry.reference, entry.runningBalance]),
    ).toEqual([
      ['opening', addDays(today, -60), 'Brought forward', '10000'],
      ['charge', addDays(today, -50), 'INV-0042', '12000'],
      ['charge', today, '', '12500'],
    ]);
    expect(entries[0]?.dueDate).toBe(addDays(today, -45));

    // Without a due date an opening balance is due on its own date.
    const plain = await add(owner.cookie, { balance: 10_00, openingDate: addDays(today, -10) });
    expect(plain.oldestDueDate).toBe(addDays(today, -10));
    const overdue = (
      await injectOk(testApp.app, 'GET', '/api/clients?overdue=true', owner.cookie)
    ).json<{ clients: Client[] }>();
    expect(overdue.clients.map((found) => found.id).sort()).toEqual([client.id, plain.id].sort());
  });

  it('keep their date, due date and reference when the currency changes', async () => {
    const owner = await joinAs(testApp.app);
    const today = utcDay();
    const client = await add(owner.cookie, {
      balance: 100_00,
      currency: 'USD',
      openingDate: addDays(today, -60),
      openingDueDate: addDays(today, -45),
      openingReference: 'B/F',
    });
    const edited = (
      await injectOk(testApp.app, 'PUT', `/api/clients/${client.id}`, owner.cookie, {
        ...buildClient({ balance: 130_000, currency: 'KRW' }),
        email: client.email,
        version: client.version,
      })
    ).json<Client>();
    expect(edited.oldestDueDate).toBe(addDays(today, -45));
    const [opening] = (await entriesOf(owner.cookie, client.id)).filter(
      (entry) => entry.kind === 'opening' && entry.currency === 'KRW',
    );
    expect(opening).toMatchObject({
      amount: 130_000,
      date: addDays(today, -60),
      dueDate: addDays(today, -45),
      reference: 'B/F',
    });
  });

  it('change their date, due date and reference on the edit form, and age by them', async () => {
    const owner = await joinAs(testApp.app);
    const today = utcDay();
    const client = await add(owner.cookie, { balance: 100_00, currency: 'USD' });
    await record(owner.cookie, client.id, {
      kind: 'charge',
      amount: 20_00,
      date: addDays(today, -45),
    });
    const current = await read(owner.cookie, client.id);
    const edited = (
      await injectOk(testApp.app, 'PUT', `/api/clients/${client.id}`, owner.cookie, {
        ...buildClient({ balance: current.balance, currency: 'USD' }),
        version: current.version,
        openingDate: addDays(today, -90),
        openingDueDate: addDays(today, -60),
        openingReference: 'B/F 2025',
      })
    ).json<Client>();
    // The opening is the oldest amount owed now: overdue since its new due date.
    expect(edited).toMatchObject({ balance: 120_00, oldestDueDate: addDays(today, -60) });
    const entries = await entriesOf(owner.cookie, client.id);
    expect(
      entries.map((entry) => [
        entry.kind,
        entry.date,
        entry.dueDate,
        entry.reference,
        entry.runningBalance,
      ]),
    ).toEqual([
      ['opening', addDays(today, -90), addDays(today, -60), 'B/F 2025', '10000'],
      ['charge', addDays(today, -45), null, '', '12000'],
    ]);
    // The month figures moved with it: out of this month, into the month of its new date.
    const months = await testApp.app.db.kysely
      .selectFrom('ledger_months')
      .select(['month', 'high', 'low'])
      .where('book_id', '=', owner.userId)
      .execute();
    const monthTotal = (day: string) =>
      months
        .filter((month) => month.month === day.slice(0, 7))
        .reduce((total, month) => total + BigInt(month.high) * 2n ** 32n + BigInt(month.low), 0n);
    expect(monthTotal(today)).toBe(0n);
    expect(monthTotal(addDays(today, -90))).toBe(100_00n);
    // The history says what the edit changed.
    expect((await historyOf(owner.cookie, client.id))[0]).toMatchObject({
      action: 'edited',
      entry: {
        kind: 'opening',
        date: addDays(today, -90),
        dueDate: addDays(today, -60),
        reference: 'B/F 2025',
      },
    });

    // Checked as on creation, the field named, nothing written.
    const again = await read(owner.cookie, client.id);
    const cases: [object, string, string][] = [
      [{ openingDate: addDays(today, 3) }, 'openingDate', 'The date cannot be in the future.'],
      [{ openingDate: '2026-02-30' }, 'openingDate', 'Enter a date as YYYY-MM-DD.'],
      [
        { openingDueDate: addDays(today, -91) },
        'openingDueDate',
        'The due date cannot be before the date of the balance.',
      ],
      [{ openingReference: 'x'.repeat(41) }, 'openingReference', 'Use at most 40 characters.'],
    ];
    for (const [values, field, message] of cases) {
      const response = await call('PUT', `/api/clients/${client.id}`, owner.cookie, {
        ...buildClient({ balance: again.balance, currency: 'USD' }),
        version: again.version,
        ...values,
      });
      expect(response.statusCode, JSON.stringify(values)).toBe(400);
      expect(response.json<{ error: { fields: Record<string, string> } }>().error.fields).toEqual({
        [field]: message,
      });
    }
    expect(await read(owner.cookie, client.id)).toMatchObject({ version: again.version });
  });

  it('refuse opening terms for a client with no opening balance, naming the field', async () => {
    const owner = await joinAs(testApp.app);
    const client = await add(owner.cookie, { balance: 0 });
    const response = await call('PUT', `/api/clients/${client.id}`, owner.cookie, {
      ...buildClient({ balance: 0 }),
      version: client.version,
      openingReference: 'B/F',
    });
    expect(response.statusCode).toBe(400);
    expect(response.json<{ error: { fields: object } }>().error.fields).toEqual({
      openingReference: 'This client has no opening balance.',
    });
  });

  it('refuses a date in the future or a due date before it with 400 naming the field, and writes nothing', async () => {
    const owner = await joinAs(testApp.app);
    const today = utcDay();
    const cases: [Partial<ClientInput>, string, string][] = [
      [{ openingDate: addDays(today, 3) }, 'openingDate', 'The date cannot be in the future.'],
      [{ openingDate: '1899-12-31' }, 'openingDate', 'Use a date in 1900 or later.'],
      [{ openingDate: '2026-02-30' }, 'openingDate', 'Enter a date as YYYY-MM-DD.'],
      [
        { openingDate: '2026-03-10', openingDueDate: '2026-03-01' },
        'openingDueDate',
        'The due date cannot be before the date of the balance.',
      ],
      [
        { openingDueDate: addDays(today, -1) },
        'openingDueDate',
        'The due date cannot be before the date of the balance.',
      ],
      [{ openingReference: 'x'.repeat(41) }, 'openingReference', 'Use at most 40 characters.'],
    ];
    for (const [values, field, message] of cases) {
      const response = await call('POST', '/api/clients', owner.cookie, buildClient(values));
      expect(response.statusCode, JSON.stringify(values)).toBe(400);
      expect(response.json<{ error: { fields: Record<string, string> } }>().error.fields).toEqual({
        [field]: message,
      });
    }
    const list = (await injectOk(testApp.app, 'GET', '/api/clients', owner.cookie)).json<{
      count: number;
    }>();
    expect(list.count).toBe(0);
  });
});

describe('the ledger in pages', () => {
  it('answers the newest page first, oldest first within it, with the balance over the whole ledger', async () => {
    const owner = await joinAs(testApp.app);
    const client = await add(owner.cookie, {
      balance: 1_000,
      currency: 'USD',
      openingDate: '2026-01-01',
    });
    for (let day = 2; day <= 6; day++)
      await record(owner.cookie, client.id, {
        kind: 'charge',
        amount: 100 * day,
        date: `2026-01-0${day}`,
      });
    // A payment typed by mistake and voided: neither moves any running balance, on any page.
    const { entry: slip } = await record(owner.cookie, client.id, {
      kind: 'payment',
      amount: 99_999,
      date: '2026-01-03',
    });
    await call('POST', `/api/clients/${client.id}/entries/${slip.entryId}/void`, owner.cookie, {
      reason: 'typo',
    });

    const newest = await entriesPage(owner.cookie, client.id, '?limit=3');
    expect(newest.entries.map((entry) => [entry.date, entry.kind, entry.runningBalance])).toEqual([
      ['2026-01-05', 'charge', '2400'],
      ['2026-01-06', 'charge', '3000'],
      [utcDay(), 'void', null],
    ]);
    expect(newest.nextCursor).not.toBeNull();
    const middle = await entriesPage(
      owner.cookie,
      client.id,
      `?limit=3&cursor=${newest.nextCursor}`,
    );
    expect(middle.entries.map((entry) => [entry.date, entry.kind, entry.runningBalance])).toEqual([
      ['2026-01-03', 'charge', '1500'],
      ['2026-01-03', 'payment', null],
      ['2026-01-04', 'charge', '1900'],
    ]);
    const oldest = await entriesPage(
      owner.cookie,
      client.id,
      `?limit=3&cursor=${middle.nextCursor}`,
    );
    expect(oldest.entries.map((entry) => [entry.kind, entry.runningBalance])).toEqual([
      ['opening', '1000'],
      ['charge', '1200'],
    ]);
    expect(oldest.nextCursor).toBeNull();
    // One kind only: the balance is still the ledger's after that entry.
    const openings = await entriesPage(owner.cookie, client.id, '?kind=opening');
    expect(openings).toMatchObject({
      entries: [{ kind: 'opening', runningBalance: '1000' }],
      nextCursor: null,
    });
  });

  it('refuses a forged cursor, a limit out of range or an unknown kind with 400 naming it', async () => {
    const owner = await joinAs(testApp.app);
    const client = await add(owner.cookie, { balance: 1_000 });
    for (const [query, field] of [
      ['?cursor=bm90IGEgY3Vyc29y', 'cursor'],
      [`?cursor=${Buffer.from('["2026-01-01","1"]').toString('base64url')}`, 'cursor'],
      ['?limit=0', 'limit'],
      ['?limit=501', 'limit'],
      ['?kind=gift', 'kind'],
    ] as const) {
      const response = await call('GET', `/api/clients/${client.id}/entries${query}`, owner.cookie);
      expect(response.statusCode, query).toBe(400);
      expect(
        Object.keys(response.json<{ error: { fields: object } }>().error.fields),
        query,
      ).toEqual([field]);
    }
  });

  it('answers the same to a read-only token', async () => {
    const owner = await joinAs(testApp.app);
    const client = await add(owner.cookie, { balance: 1_000 });
    const token = (
      await injectOk(testApp.app, 'POST', '/api/tokens', owner.cookie, {
        name: 'script',
        access: 'read',
      })
    ).json<{ secret: string }>().secret;
    const response = await testApp.app.inject({
      method: 'GET',
      url: `/api/clients/${client.id}/entries?limit=1`,
      headers: { authorization: `Bearer ${token}` },
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({
      entries: [{ kind: 'opening', runningBalance: '1000' }],
      nextCursor: null,
    });
  });
});
