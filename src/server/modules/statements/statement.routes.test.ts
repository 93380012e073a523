import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../../../tests/app.ts';
import { joinAs } from '../../../../tests/auth.ts';
import { buildClient } from '../../../../tests/factories.ts';
import { injectOk } from '../../../../tests/http.ts';
import { pdfText } from '../../../../tests/pdf-text.ts';
import { addDays, utcDay } from '../../../shared/dates.ts';
import type { Ageing, Client, ClientInput } from '../../../shared/schemas/clients.ts';
import type { RecordedEntry } from '../../../shared/schemas/ledger.ts';
import type { Statement } from '../../../shared/schemas/statement.ts';

let testApp: TestApp;
/** One owner and a client whose ledger the figures below were worked out from by hand. */
let owner: { cookie: string };
let ada: Client;
let voidablePaymentId: number;

const add = async (cookie: string, values: Partial<ClientInput>) =>
  (await injectOk(testApp.app, 'POST', '/api/clients', cookie, buildClient(values))).json<Client>();
const record = async (cookie: string, id: string, body: object) =>
  (
    await injectOk(testApp.app, 'POST', `/api/clients/${id}/entries`, cookie, body)
  ).json<RecordedEntry>();
const statementOf = async (id: string, query = '', cookie = owner.cookie) =>
  (
    await injectOk(testApp.app, 'GET', `/api/clients/${id}/statement${query}`, cookie)
  ).json<Statement>();

beforeAll(async () => {
  testApp = await buildTestApp();
  owner = await joinAs(testApp.app);
  // The opening balance of 50.00 is entered today: after the period of 2025 looked at below.
  ada = await add(owner.cookie, { firstName: 'Ada', lastName: 'Lovelace', balance: 5_000 });
  const entries: object[] = [
    { kind: 'charge', amount: 10_000, date: '2025-03-10', dueDate: '2025-03-31' },
    { kind: 'payment', amount: 3_000, date: '2025-03-20' },
    { kind: 'charge', amount: 20_000, date: '2025-04-05', dueDate: '2025-05-05', note: 'April' },
    { kind: 'payment', amount: 5_000, date: '2025-04-15', note: 'thanks' },
    { kind: 'charge', amount: 8_000, date: '2025-05-20' },
    { kind: 'charge', amount: 4_000, date: '2025-06-25', dueDate: '2025-07-25' },
    { kind: 'charge', amount: 999, date: '2025-07-10' },
  ];
  for (const entry of entries) await record(owner.cookie, ada.id, entry);
  voidablePaymentId = (
    await record(owner.cookie, ada.id, { kind: 'payment', amount: 1_234, date: '2025-06-10' })
  ).entry.entryId;
});

afterAll(async () => {
  await testApp.close();
});

describe('a client statement', () => {
  it('has the opening balance from the entries before the period, each entry with its running balance, the closing balance and the ageing on the last day', async () => {
    const statement = await statementOf(ada.id, '?from=2025-04-01&to=2025-06-30');
    expect(statement.period).toEqual({ from: '2025-04-01', to: '2025-06-30' });
    expect(statement.client).toMatchObject({ id: ada.id, firstName: 'Ada', currency: 'USD' });
    // 100.00 charged less 30.00 paid in March.
    expect(statement.openingBalance).toBe('7000');
    expect(
      statement.lines.map((line) => [line.date, line.amount, line.balance, line.description]),
    ).toEqual([
      ['2025-04-05', 20_000, '27000', 'Charge: April'],
      ['2025-04-15', -5_000, '22000', 'Payment: thanks'],
      ['2025-05-20', 8_000, '30000', 'Charge'],
      ['2025-06-10', -1_234, '28766', 'Payment'],
      ['2025-06-25', 4_000, '32766', 'Charge'],
    ]);
    expect(statement.closingBalance).toBe('32766');
    // Payments of 92.34 settle the oldest charge (100.00, due 31 March: 91 days overdue on 30
    // June) down to 7.66; April's 200.00 (due 5 May) and May's 80.00 (due 20 May) are 31-60
    // days overdue; June's 40.00 falls due in July.
    expect(statement.ageing).toEqual({
      asOf: '2025-06-30',
      owed: '32766',
      overdue: '28766',
      buckets: {
        current: '4000',
        days1to30: '0',
        days31to60: '28000',
        days61to90: '0',
        over90: '766',
      },
    });
    expect(statement.business).toEqual({ name: '', address: '' });
    expect(statement.emailConfigured).toBe(false);
  });

  it('of a period with no entries carries the balance through, aged on its own last day', async () => {
    const statement = await statementOf(ada.id, '?from=2025-08-01&to=2025-08-31');
    expect(statement.lines).toEqual([]);
    expect(statement.openingBalance).toBe('33765');
    expect(statement.closingBalance).toBe('33765');
    expect(statement.ageing.buckets).toEqual({
      current: '0',
      days1to30: '0',
      days31to60: '4999',
      days61to90: '0',
      over90: '28766',
    });
    // Before anything was entered: nothing at all.
    const empty = await statementOf(ada.id, '?from=2025-01-01&to=2025-01-31');
    expect(empty).toMatchObject({ openingBalance: '0', closingBalance: '0', lines: [] });
    expect(empty.ageing.owed).toBe('0');
  });

  it('shows a void in the period it was made in, and the last 90 days by default', async () => {
    await injectOk(
      testApp.app,
      'POST',
      `/api/clients/${ada.id}/entries/${voidablePaymentId}/void`,
      owner.cookie,
      { reason: 'bounced' },
    );
    const today = utcDay();
    const statement = await statementOf(ada.id);
    expect(statement.period).toEqual({ from: addDays(today, -89), to: today });
    expect(statement.openingBalance).toBe('33765');
    expect(
      statement.lines.map((line) => [line.kind, line.amount, line.balance, line.description]),
    ).toEqual([
      ['opening', 5_000, '38765', 'Opening balance'],
      ['void', 1_234, '39999', 'Void of the payment of 2025-06-10: bounced'],
    ]);
    expect(statement.closingBalance).toBe('39999');
    expect(statement.ageing).toMatchObject({
      owed: '39999',
      overdue: '34999',
      buckets: { current: '5000', over90: '34999' },
    });
    // Ending today, it ages what is owed exactly as the dashboard does from its kept amounts.
    const dashboard = (
      await injectOk(testApp.app, 'GET', '/api/ageing', owner.cookie)
    ).json<Ageing>();
    expect(dashboard.currencies).toEqual([
      { currency: 'USD', owed: statement.ageing.owed, buckets: statement.ageing.buckets },
    ]);
    // The statement of June is what it was then: the later void does not change it.
    expect((await statementOf(ada.id, '?from=2025-04-01&to=2025-06-30')).closingBalance).toBe(
      '32766',
    );
  });

  it('shows the business name and address from the settings', async () => {
    const other = await joinAs(testApp.app);
    const client = await add(other.cookie, {
      firstName: '민준',
      lastName: '남궁',
      currency: 'KRW',
    });
    const saved = await injectOk(testApp.app, 'PUT', '/api/settings', other.cookie, {
      preferences: { disableBalanceOnAdd: false, disableBalanceOnEdit: false },
      rates: [],
      business: { name: '  서울 상점 ', address: 'Line 1\r\nLine 2' },
    });
    expect(saved.json<{ business: object }>().business).toEqual({
      name: '서울 상점',
      address: 'Line 1\nLine 2',
    });
    const statement = await statementOf(client.id, '', other.cookie);
    expect(statement.business).toEqual({ name: '서울 상점', address: 'Line 1\nLine 2' });
    expect(statement.client).toMatchObject({ firstName: '민준', currency: 'KRW' });
    // A save that leaves the business out keeps it.
    await injectOk(testApp.app, 'PUT', '/api/settings', other.cookie, {
      preferences: { disableBalanceOnAdd: true, disableBalanceOnEdit: false },
      rates: [],
    });
    expect(
      (await injectOk(testApp.app, 'GET', '/api/settings', other.cookie)).json(),
    ).toMatchObject({
      preferences: { disableBalanceOnAdd: true },
      business: { name: '서울 상점' },
    });
  });

  it('refuses a business name with control characters or too long, naming the field', async () => {
    const response = await testApp.app.inject({
      method: 'PUT',
      url: '/api/settings',
      headers: { cookie: owner.cookie },
      payload: {
        preferences: { disableBalanceOnAdd: false, disableBalanceOnEdit: false },
        rates: [],
        business: { name: 'x'.repeat(101), address: 'a\u0007b' },
      },
    });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({
      error: {
        fields: {
          'business.name': 'Use at most 100 characters.',
          'business.address': 'Remove the control characters.',
        },
      },
    });
  });

  it('of another owner’s client answers exactly like a missing one', async () => {
    const stranger = await joinAs(testApp.app);
    for (const suffix of ['', '.csv', '.pdf']) {
      const foreign = await testApp.app.inject({
        method: 'GET',
        url: `/api/clients/${ada.id}/statement${suffix}`,
        headers: { cookie: stranger.cookie },
      });
      const missing = await testApp.app.inject({
        method: 'GET',
        url: `/api/clients/${'x'.repeat(22)}/statement${suffix}`,
        headers: { cookie: stranger.cookie },
      });
      expect(foreign.statusCode).toBe(404);
      expect(foreign.body).toBe(missing.body);
      expect(foreign.json()).toEqual({ error: { code: 'not_found', message: 'Client not found' } });
    }
    const signedOut = await testApp.app.inject({
      method: 'GET',
      url: `/api/clients/${ada.id}/statement`,
    });
    expect(signedOut.statusCode).toBe(401);
  });

  it.each([
    ['?from=2025-02-30', 'from', 'Enter a date as YYYY-MM-DD.'],
    ['?to=yesterday', 'to', 'Enter a date as YYYY-MM-DD.'],
    ['?from=2025-06-02&to=2025-06-01', 'from', 'The start cannot be after the end of the period.'],
    ['?from=2020-01-01&to=2025-01-01', 'from', 'Choose a period of at most 731 days.'],
  ])('refuses the period %s, naming %s', async (query, field, message) => {
    const response = await testApp.app.inject({
      method: 'GET',
      url: `/api/clients/${ada.id}/statement${query}`,
      headers: { cookie: owner.cookie },
    });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({
      error: { code: 'validation', fields: { [field]: message } },
    });
  });
});

describe('a statement to download', () => {
  it('as CSV: the same figures, amounts as decimal text, text safe from formulas', async () => {
    const client = await add(owner.cookie, {
      firstName: '=HYPERLINK("x")',
      lastName: 'Ødegård',
      balance: 0,
    });
    await record(owner.cookie, client.id, {
      kind: 'charge',
      amount: 12_345,
      date: '2025-05-02',
      note: '+SUM(A1)',
    });
    const response = await injectOk(
      testApp.app,
      'GET',
      `/api/clients/${client.id}/statement.csv?from=2025-05-01&to=2025-05-31`,
      owner.cookie,
    );
    expect(response.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(response.headers['content-disposition']).toContain(
      'statement-HYPERLINKx-degard-2025-05-01-to-2025-05-31.csv',
    );
    const lines = response.body
      .replace(/^\uFEFF/, '')
      .trim()
      .split('\n');
    expect(lines).toContain(`Client,"'=HYPERLINK(""x"") Ødegård",${client.email}`);
    expect(lines).toContain('2025-05-01,Opening balance,,,0.00');
    expect(lines).toContain('2025-05-02,Charge: +SUM(A1),,123.45,123.45');
    expect(lines).toContain('2025-05-31,Closing balance,,,123.45');
    // Due on the day it was charged, 2 May: 29 days overdue on 31 May.
    expect(lines.at(-1)).toBe(',0.00,123.45,0.00,0.00,0.00,123.45');
  });

  it('as PDF: names in Hangul and other scripts, ₩ amounts, opening and closing balances', async () => {
    const seller = await joinAs(testApp.app);
    await injectOk(testApp.app, 'PUT', '/api/settings', seller.cookie, {
      preferences: { disableBalanceOnAdd: false, disableBalanceOnEdit: false },
      rates: [],
      business: { name: '한빛 상사', address: '서울특별시 중구 세종대로 110\nSeoul 04524' },
    });
    const client = await add(seller.cookie, {
      firstName: '지우',
      lastName: 'Ødegård',
      currency: 'KRW',
      balance: 0,
    });
    await record(seller.cookie, client.id, {
      kind: 'charge',
      amount: 1_500_000,
      date: '2025-03-01',
    });
    await record(seller.cookie, client.id, {
      kind: 'charge',
      amount: 2_000_000,
      date: '2025-05-02',
      note: '5월 작업',
    });
    await record(seller.cookie, client.id, {
      kind: 'payment',
      amount: 700_000,
      date: '2025-05-20',
    });
    const response = await injectOk(
      testApp.app,
      'GET',
      `/api/clients/${client.id}/statement.pdf?from=2025-05-01&to=2025-05-31`,
      seller.cookie,
    );
    expect(response.headers['content-type']).toBe('application/pdf');
    expect(response.headers['content-disposition']).toContain("filename*=UTF-8''statement-");
    const { text } = await pdfText(response.rawPayload);
    for (const expected of [
      '한빛 상사',
      '서울특별시 중구 세종대로 110',
      '지우 Ødegård',
      'Statement of account',
      '2025-05-01 to 2025-05-31',
      'Opening balance on 2025-05-01: ₩1,500,000',
      'Closing balance on 2025-05-31: ₩2,800,000',
      'Charge: 5월 작업',
      '₩2,000,000',
      '-₩700,000',
      'Ageing on 2025-05-31',
    ])
      expect(text).toContain(expected);

    // Asked in Korean (the owner's language), the same statement says everything in Korean.
    const korean = await testApp.app.inject({
      method: 'GET',
      url: `/api/clients/${client.id}/statement.pdf?from=2025-05-01&to=2025-05-31`,
      headers: { cookie: seller.cookie, 'accept-language': 'ko-KR,ko;q=0.9' },
    });
    expect(korean.statusCode).toBe(200);
    const { text: koreanText } = await pdfText(korean.rawPayload);
    for (const expected of [
      '한빛 상사',
      '지우 Ødegård',
      '거래명세서',
      '2025. 5. 1. ~ 2025. 5. 31.',
      '2025. 5. 1. 기초 잔액: ₩1,500,000',
      '2025. 5. 31. 기말 잔액: ₩2,800,000',
      '날짜',
      '내역',
      '청구: 5월 작업',
      '입금',
      '₩2,000,000',
      '-₩700,000',
      '2025. 5. 31. 기준 연체 기간별 미수금',
      '미수금 합계',
    ])
      expect(koreanText).toContain(expected);
    expect(koreanText).not.toContain('Statement of account');

    // A download link names the language the app is shown in, over the browser's header.
    const malay = await testApp.app.inject({
      method: 'GET',
      url: `/api/clients/${client.id}/statement.pdf?from=2025-05-01&to=2025-05-31&lang=ms`,
      headers: { cookie: seller.cookie, 'accept-language': 'ko-KR,ko;q=0.9' },
    });
    expect(malay.statusCode).toBe(200);
    const { text: malayText } = await pdfText(malay.rawPayload);
    expect(malayText).not.toContain('거래명세서');
    expect(malayText).toContain('₩2,800,000');
    expect(malayText).toMatch(/Penyata/i);

    const unknown = await testApp.app.inject({
      method: 'GET',
      url: `/api/clients/${client.id}/statement.pdf?lang=fr`,
      headers: { cookie: seller.cookie },
    });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json()).toMatchObject({
      error: { code: 'validation', fields: { lang: 'Choose en, ko or ms.' } },
    });
  });
});
