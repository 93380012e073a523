import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../../../tests/app.ts';
import { joinAs } from '../../../../tests/auth.ts';
import { buildClient } from '../../../../tests/factories.ts';
import { injectOk } from '../../../../tests/http.ts';
import { pdfText, pdfTextFonts } from '../../../../tests/pdf-text.ts';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { create } from 'fontkit';
import { addDays, utcDay, writtenDay } from '../../../shared/dates.ts';
import type { Ageing, Client, ClientInput } from '../../../shared/schemas/clients.ts';
import type { RecordedEntry } from '../../../shared/schemas/ledger.ts';
import type { Statement } from '../../../shared/schemas/statement.ts';

let testApp: TestApp;

/** A PDF's text with its lines and the spaces between table cells made single spaces. */
const oneLine = (text: string) => text.replace(/\s+/g, ' ');
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
    { kind: 'payment', amount: 5_000, date: '2025-04-15', note: 'thanks', method: 'cash' },
    { kind: 'charge', amount: 8_000, date: '2025-05-20', reference: 'INV-2025-05' },
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
      ['2025-04-15', -5_000, '22000', 'Payment (cash): thanks'],
      // A reference is written before the note: an invoice's number, a bank's reference.
      ['2025-05-20', 8_000, '30000', 'Charge: INV-2025-05'],
      // A payment recorded without a method says none.
      ['2025-06-10', -1_234, '28766', 'Payment'],
      ['2025-06-25', 4_000, '32766', 'Charge'],
    ]);
    expect(statement.closingBalance).toBe('32766');
    // What is still unpaid on 30 June, item by item: the March charge's 7.66 left (a reference
    // is the entry's own, or its note when it has none).
    expect(statement.openItems.map(({ id: _, ...item }) => item)).toEqual([
      {
        kind: 'charge',
        date: '2025-03-10',
        reference: '',
        dueDate: '2025-03-31',
        amount: 10_000,
        paid: 9_234,
        remaining: 766,
        daysOverdue: 91,
      },
      {
        kind: 'charge',
        date: '2025-04-05',
        reference: 'April',
        dueDate: '2025-05-05',
        amount: 20_000,
        paid: 0,
        remaining: 20_000,
        daysOverdue: 56,
      },
      // No due date: due the day it was charged.
      {
        kind: 'charge',
        date: '2025-05-20',
        reference: 'INV-2025-05',
        dueDate: '2025-05-20',
        amount: 8_000,
        paid: 0,
        remaining: 8_000,
        daysOverdue: 41,
      },
      {
        kind: 'charge',
        date: '2025-06-25',
        reference: '',
        dueDate: '2025-07-25',
        amount: 4_000,
        paid: 0,
        remaining: 4_000,
        daysOverdue: 0,
      },
    ]);
    expect(statement.amountDue).toEqual({ amount: '32766', overdue: '28766', payBy: 'now' });
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
    expect(statement.business).toEqual({ name: '', address: '', paymentDetails: '', taxId: '' });
    expect(statement.emailConfigured).toBe(false);
    // Dated on its last day, numbered from the client and that day: the same every time.
    expect(statement.date).toBe('2025-06-30');
    expect(statement.number).toMatch(/^[0-9A-HJKMNP-TV-Z]{6}-20250630$/);
    expect((await statementOf(ada.id, '?from=2025-06-01&to=2025-06-30')).number).toBe(
      statement.number,
    );
    const july = await statementOf(ada.id, '?from=2025-07-01&to=2025-07-31');
    expect(july.number).toBe(`${statement.number.slice(0, 6)}-20250731`);
    // Another client's statements have another code (of another owner: this one's ageing is
    // counted below).
    const stranger = await joinAs(testApp.app);
    const other = await add(stranger.cookie, { firstName: 'Other' });
    const others = await statementOf(other.id, '?from=2025-04-01&to=2025-06-30', stranger.cookie);
    expect(others.number.slice(0, 6)).not.toBe(statement.number.slice(0, 6));
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

  it('asks to pay by the earliest due day when nothing is overdue yet', async () => {
    const client = await add(owner.cookie, { balance: 0 });
    await record(owner.cookie, client.id, {
      kind: 'charge',
      amount: 500,
      date: '2025-03-01',
      dueDate: '2025-04-15',
    });
    await record(owner.cookie, client.id, {
      kind: 'charge',
      amount: 700,
      date: '2025-03-02',
      dueDate: '2025-03-30',
    });
    const early = await statementOf(client.id, '?from=2025-03-01&to=2025-03-10');
    expect(early.amountDue).toEqual({ amount: '1200', overdue: '0', payBy: '2025-03-30' });
    // Paid up and beyond: nothing to pay, nothing open, the credit in the closing balance.
    await record(owner.cookie, client.id, { kind: 'payment', amount: 2_000, date: '2025-03-05' });
    const paid = await statementOf(client.id, '?from=2025-03-01&to=2025-03-10');
    expect(paid.amountDue).toEqual({ amount: '0', overdue: '0', payBy: null });
    expect(paid.openItems).toEqual([]);
    expect(paid.closingBalance).toBe('-800');
  });

  it('leaves a voided entry and its void out, with the balance brought forward as if neither was made, and the last 90 days by default', async () => {
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
    // The payment of 12.34 on 10 June 2025 bounced: brought forward without it (33,765 + 1,234),
    // and neither it nor its void (dated today) is a line of the period.
    expect(statement.openingBalance).toBe('34999');
    expect(
      statement.lines.map((line) => [line.kind, line.amount, line.balance, line.description]),
    ).toEqual([['opening', 5_000, '39999', 'Opening balance']]);
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

  it('shows the business name, address and tax id from the settings', async () => {
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
      paymentDetails: '',
      taxId: '',
      mainCurrency: 'USD',
    });
    const statement = await statementOf(client.id, '', other.cookie);
    expect(statement.business).toEqual({
      name: '서울 상점',
      address: 'Line 1\nLine 2',
      paymentDetails: '',
      taxId: '',
    });
    // The tax id, saved with the business, kept by a save that leaves it out.
    await injectOk(testApp.app, 'PUT', '/api/settings', other.cookie, {
      business: { name: '서울 상점', address: 'Line 1\nLine 2', taxId: ' 123-45-67890 ' },
    });
    await injectOk(testApp.app, 'PUT', '/api/settings', other.cookie, {
      business: { name: '서울 상점', address: 'Line 1\nLine 2' },
    });
    expect((await statementOf(client.id, '', other.cookie)).business.taxId).toBe('123-45-67890');
    expect(statement.client).toMatchObject({ firstName: '민준', currency: 'KRW' });
    // How to pay: saved with the business, kept by a save that sends the business without it.
    await injectOk(testApp.app, 'PUT', '/api/settings', other.cookie, {
      preferences: { disableBalanceOnAdd: false, disableBalanceOnEdit: false },
      rates: [],
      business: {
        name: '서울 상점',
        address: 'Line 1\nLine 2',
        paymentDetails: ' 국민은행 123-456-789\r\nhttps://pay.example/seoul ',
      },
    });
    await injectOk(testApp.app, 'PUT', '/api/settings', other.cookie, {
      preferences: { disableBalanceOnAdd: false, disableBalanceOnEdit: false },
      rates: [],
      business: { name: '서울 상점', address: 'Line 1\nLine 2' },
    });
    expect((await statementOf(client.id, '', other.cookie)).business.paymentDetails).toBe(
      '국민은행 123-456-789\nhttps://pay.example/seoul',
    );
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

  it('refuses a business name, address or payment details with control characters or too long, naming the field', async () => {
    const response = await testApp.app.inject({
      method: 'PUT',
      url: '/api/settings',
      headers: { cookie: owner.cookie },
      payload: {
        preferences: { disableBalanceOnAdd: false, disableBalanceOnEdit: false },
        rates: [],
        business: {
          name: 'x'.repeat(101),
          address: 'a\u0007b',
          paymentDetails: 'y'.repeat(501),
          taxId: 'z'.repeat(51),
        },
      },
    });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({
      error: {
        fields: {
          'business.name': 'Use at most 100 characters.',
          'business.address': 'Remove the control characters.',
          'business.paymentDetails': 'Use at most 500 characters.',
          'business.taxId': 'Use at most 50 characters.',
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
    // "Balance brought forward", so a client's own opening balance is the only "Opening balance".
    expect(lines).toContain('2025-05-01,Balance brought forward,,,0.00');
    expect(lines).toContain('Amount due,123.45');
    expect(lines).toContain('Pay by,now');
    expect(lines).toContain("2025-05-02,'+SUM(A1),2025-05-02,123.45,0.00,123.45,29");
    expect(lines).toContain('2025-05-02,Charge: +SUM(A1),,123.45,123.45');
    expect(lines).toContain('2025-05-31,Closing balance,,,123.45');
    // Due on the day it was charged, 2 May: 29 days overdue on 31 May.
    expect(lines.at(-1)).toBe(',0.00,123.45,0.00,0.00,0.00,123.45');
  });

  it('as PDF: a balance of nothing brought forward reads 0.00, not an empty cell', async () => {
    const client = await add(owner.cookie, { firstName: 'Nil', lastName: 'Before', balance: 0 });
    await record(owner.cookie, client.id, { kind: 'charge', amount: 12_345, date: '2025-05-02' });
    await record(owner.cookie, client.id, { kind: 'payment', amount: 12_345, date: '2025-05-09' });
    const response = await injectOk(
      testApp.app,
      'GET',
      `/api/clients/${client.id}/statement.pdf?from=2025-05-01&to=2025-05-31`,
      owner.cookie,
    );
    const text = oneLine((await pdfText(response.rawPayload)).text);
    expect(text).toContain('May 1, 2025 Balance brought forward 0.00 ');
    expect(text).toContain('May 9, 2025 Payment (123.45) 0.00 ');
    expect(text).toContain('May 31, 2025 Closing balance 0.00 ');
  });

  it('as CSV in Korean and Malay: labels in the language, a Korean name family name first', async () => {
    const client = await add(owner.cookie, { firstName: '지우', lastName: '김', balance: 0 });
    await record(owner.cookie, client.id, { kind: 'charge', amount: 50_000, date: '2025-05-02' });
    const csvIn = async (lang: string) =>
      (
        await injectOk(
          testApp.app,
          'GET',
          `/api/clients/${client.id}/statement.csv?from=2025-05-01&to=2025-05-31&lang=${lang}`,
          owner.cookie,
        )
      ).body
        .replace(/^\uFEFF/, '')
        .trim()
        .split('\n');
    const korean = await csvIn('ko');
    expect(korean).toContain(`고객,김지우,${client.email}`);
    expect(korean).toContain('청구 금액,500.00');
    expect(korean).toContain('미결제 항목');
    const malay = await csvIn('ms');
    expect(malay).toContain(`Pelanggan,김지우,${client.email}`);
    expect(malay).toContain('Jumlah perlu dibayar,500.00');
    // Dates and amounts stay as a spreadsheet reads them, whatever the language.
    expect(malay).toContain('2025-05-31,Baki akhir,,,500.00');
  });

  it('as PDF: names in Hangul and other scripts, ₩ amounts, opening and closing balances', async () => {
    const seller = await joinAs(testApp.app);
    await injectOk(testApp.app, 'PUT', '/api/settings', seller.cookie, {
      preferences: { disableBalanceOnAdd: false, disableBalanceOnEdit: false },
      rates: [],
      business: {
        name: '한빛 상사',
        address: '서울특별시 중구 세종대로 110\nSeoul 04524',
        taxId: '123-45-67890',
      },
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
      method: 'card',
    });
    const response = await injectOk(
      testApp.app,
      'GET',
      `/api/clients/${client.id}/statement.pdf?from=2025-05-01&to=2025-05-31`,
      seller.cookie,
    );
    expect(response.headers['content-type']).toBe('application/pdf');
    // The client's name as written, and a plain fallback for programs that do not read filename*.
    expect(response.headers['content-disposition']).toBe(
      'attachment; filename="statement-degard-2025-05-01-to-2025-05-31.pdf"; ' +
        "filename*=UTF-8''statement-%EC%A7%80%EC%9A%B0-%C3%98deg%C3%A5rd-2025-05-01-to-2025-05-31.pdf",
    );
    // Payments settle the oldest first: ₩800,000 left of March's charge (91 days overdue on 31
    // May), all of May's (29 days). Figures carry no symbol; the payment is in parentheses.
    const { text } = await pdfText(response.rawPayload);
    const { number } = await statementOf(
      client.id,
      '?from=2025-05-01&to=2025-05-31',
      seller.cookie,
    );
    for (const expected of [
      '한빛 상사',
      '서울특별시 중구 세종대로 110',
      'Tax ID: 123-45-67890',
      '지우 Ødegård',
      'Statement of account',
      'Statement date: May 31, 2025',
      `Statement no.: ${number}`,
      'May 1, 2025 to May 31, 2025',
      'Statement in KRW',
      'Amount due ₩2,800,000',
      'Overdue: ₩2,800,000',
      'Overdue since Mar 1, 2025: please pay now',
      'Mar 1, 2025 Charge Mar 1, 2025 1,500,000 700,000 800,000 91',
      'May 2, 2025 5월 작업 May 2, 2025 2,000,000 2,000,000 29',
      'May 1, 2025 Balance brought forward 1,500,000',
      'May 2, 2025 Charge: 5월 작업 2,000,000 3,500,000',
      'May 20, 2025 Payment (card) (700,000) 2,800,000',
      'May 31, 2025 Closing balance 2,800,000',
      'Ageing on May 31, 2025',
    ])
      expect(oneLine(text)).toContain(expected);
    expect(text).not.toContain('Opening balance');

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
      '사업자등록번호: 123-45-67890',
      '명세서 일자: 2025. 5. 31.',
      `명세서 번호: ${number}`,
      '2025. 5. 1. ~ 2025. 5. 31.',
      '금액 단위: KRW',
      '청구 금액 ₩2,800,000',
      '연체 금액: ₩2,800,000',
      '2025. 3. 1.부터 연체: 지금 납부해 주세요',
      '미결제 항목',
      '2025. 3. 1. 청구 2025. 3. 1. 1,500,000 700,000 800,000 91',
      '2025. 5. 1. 이월 잔액 1,500,000',
      '2025. 5. 2. 청구: 5월 작업 2,000,000 3,500,000',
      '2025. 5. 20. 입금 (카드) (700,000) 2,800,000',
      '2025. 5. 31. 기말 잔액 2,800,000',
      '2025. 5. 31. 기준 연체 기간별 미수금',
      '미수금 합계',
    ])
      expect(oneLine(koreanText)).toContain(expected);
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
    for (const expected of [
      'Penyata akaun',
      'No. cukai: 123-45-67890',
      'Tarikh penyata: 31 Mei 2025',
      `No. penyata: ${number}`,
      '1 Mei 2025 hingga 31 Mei 2025',
      'Jumlah perlu dibayar ₩2,800,000',
      'Tertunggak sejak 1 Mac 2025: sila bayar sekarang',
      '20 Mei 2025 Bayaran (kad) (700,000) 2,800,000',
      'Baki dibawa ke hadapan',
    ])
      expect(oneLine(malayText)).toContain(expected);

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

  it('as PDF: Polish, Turkish, Vietnamese, Greek and Cyrillic letters, each drawn by a font that has them', async () => {
    const seller = await joinAs(testApp.app);
    await injectOk(testApp.app, 'PUT', '/api/settings', seller.cookie, {
      preferences: { disableBalanceOnAdd: false, disableBalanceOnEdit: false },
      rates: [],
      business: { name: 'Zakład Łódź', address: 'İstanbul Şişli' },
    });
    const names = [
      { firstName: 'Łukasz', lastName: 'Śliwiński', note: 'Ελένη Παπαδοπούλου' },
      { firstName: 'Şule', lastName: 'Yılmaz', note: 'Дмитрий Ёлкин, 지점 Łódź' },
      { firstName: 'Thị Hằng', lastName: 'Nguyễn', note: 'ğ ı ş ạ ễ ộ ứ' },
    ];
    const require = createRequire(import.meta.url);
    for (const { firstName, lastName, note } of names) {
      const client = await add(seller.cookie, { firstName, lastName, balance: 0 });
      await record(seller.cookie, client.id, {
        kind: 'charge',
        amount: 500,
        date: '2025-05-02',
        note,
      });
      const response = await injectOk(
        testApp.app,
        'GET',
        `/api/clients/${client.id}/statement.pdf?from=2025-05-01&to=2025-05-31`,
        seller.cookie,
      );
      const text = oneLine((await pdfText(response.rawPayload)).text);
      for (const expected of [
        `${firstName} ${lastName}`,
        `Charge: ${note}`,
        'Zakład Łódź',
        'İstanbul Şişli',
      ])
        expect(text).toContain(expected);
      for (const { text: piece, font: fontName } of await pdfTextFonts(response.rawPayload)) {
        const font = create(readFileSync(require.resolve(`#fonts/${fontName}-statement.ttf`)));
        const blank = [...piece.normalize('NFC')].filter(
          (character) =>
            /\S/u.test(character) &&
            font.glyphForCodePoint(character.codePointAt(0)!).path.commands.length === 0,
        );
        expect({ piece, fontName, blank }).toEqual({ piece, fontName, blank: [] });
      }
    }
  });

  it('as PDF in each language: the amount due with how to pay, the open items, and no trace of a voided mistake', async () => {
    const seller = await joinAs(testApp.app);
    await injectOk(testApp.app, 'PUT', '/api/settings', seller.cookie, {
      preferences: { disableBalanceOnAdd: false, disableBalanceOnEdit: false },
      rates: [],
      business: {
        name: 'Northwind',
        address: '1 Main St',
        paymentDetails: 'IBAN GB33 BUKB 2020 1555 5555 55',
      },
    });
    // 50.00 owed when the client was added (today, due today).
    const client = await add(seller.cookie, { currency: 'USD', balance: 5_000 });
    const today = utcDay();
    const day = (offset: number) => addDays(today, offset);
    await record(seller.cookie, client.id, {
      kind: 'charge',
      amount: 120_000,
      date: day(-60),
      dueDate: day(-30),
      note: 'INV-1 design',
    });
    await record(seller.cookie, client.id, {
      kind: 'payment',
      amount: 50_000,
      date: day(-20),
      method: 'cheque',
    });
    const mistake = await record(seller.cookie, client.id, {
      kind: 'payment',
      amount: 9_999_900,
      date: day(-10),
    });
    await injectOk(
      testApp.app,
      'POST',
      `/api/clients/${client.id}/entries/${mistake.entry.entryId}/void`,
      seller.cookie,
      { reason: 'typed by mistake' },
    );
    await record(seller.cookie, client.id, {
      kind: 'charge',
      amount: 30_000,
      date: day(-5),
      dueDate: day(25),
      note: 'INV-2',
    });

    const statement = await statementOf(client.id, '', seller.cookie);
    expect(statement.amountDue).toEqual({ amount: '105000', overdue: '70000', payBy: 'now' });
    expect(statement.openItems.map((item) => [item.reference, item.remaining])).toEqual([
      ['INV-1 design', 70_000],
      ['INV-2', 30_000],
      ['', 5_000],
    ]);

    const written: Record<'en' | 'ko' | 'ms', string[]> = {
      en: [
        'Amount due $1,050.00',
        'Overdue: $700.00',
        `Overdue since ${writtenDay(day(-30), 'en-US')}: please pay now`,
        'How to pay IBAN GB33 BUKB 2020 1555 5555 55',
        'Statement in USD',
        'INV-1 design',
        '1,200.00 500.00 700.00 30',
        'INV-2',
        '300.00 300.00',
        'Opening balance',
        'Payment (cheque) (500.00) 700.00',
      ],
      ko: [
        '청구 금액 US$1,050.00',
        '연체 금액: US$700.00',
        `${writtenDay(day(-30), 'ko-KR')}부터 연체: 지금 납부해 주세요`,
        '결제 방법 IBAN GB33 BUKB 2020 1555 5555 55',
        '금액 단위: USD',
        'INV-1 design',
        '1,200.00 500.00 700.00 30',
        '입금 (수표) (500.00) 700.00',
      ],
      ms: [
        'Jumlah perlu dibayar USD 1,050.00',
        'Tertunggak: USD 700.00',
        `Tertunggak sejak ${writtenDay(day(-30), 'ms-MY')}: sila bayar sekarang`,
        'Cara pembayaran IBAN GB33 BUKB 2020 1555 5555 55',
        'Penyata dalam USD',
        'INV-1 design',
        '1,200.00 500.00 700.00 30',
        'Bayaran (cek) (500.00) 700.00',
      ],
    };
    for (const [lang, expected] of Object.entries(written)) {
      const response = await injectOk(
        testApp.app,
        'GET',
        `/api/clients/${client.id}/statement.pdf?lang=${lang}`,
        seller.cookie,
      );
      const text = oneLine((await pdfText(response.rawPayload)).text);
      for (const each of expected) expect(text, lang).toContain(each);
      // The mistaken payment of 99,999.00 and its void are neither lines nor a running balance.
      expect(text, lang).not.toMatch(/99,999|97,|100,0/);
      expect(text, lang).not.toMatch(/Void|취소|Pembatalan/);
    }
  });
});
