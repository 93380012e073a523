import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../../../tests/app.ts';
import { joinAs } from '../../../../tests/auth.ts';
import { buildClient } from '../../../../tests/factories.ts';
import { injectOk } from '../../../../tests/http.ts';
import { pdfText } from '../../../../tests/pdf-text.ts';
import { bankLayoutKey } from '../../../shared/bank-layout.ts';
import { addDays, utcDay } from '../../../shared/dates.ts';
import type {
  BankConfirmed,
  BankLayouts,
  BankPreview,
  BankRuleList,
  PreviewLine,
} from '../../../shared/schemas/bank.ts';
import type { CreatedClientLink } from '../../../shared/schemas/client-links.ts';
import type { Client, ClientInput } from '../../../shared/schemas/clients.ts';
import type { Entry } from '../../../shared/schemas/ledger.ts';
import type { Statement } from '../../../shared/schemas/statement.ts';

// A matcher typed as unknown, so it can sit in expected objects.
const anyText: unknown = expect.any(String);

let testApp: TestApp;
beforeAll(async () => {
  testApp = await buildTestApp();
});
afterAll(async () => {
  await testApp.close();
});

const add = async (cookie: string, values: Partial<ClientInput>) =>
  (await injectOk(testApp.app, 'POST', '/api/clients', cookie, buildClient(values))).json<Client>();
const read = async (cookie: string, id: string) =>
  (await injectOk(testApp.app, 'GET', `/api/clients/${id}`, cookie)).json<Client>();
const entriesOf = async (cookie: string, id: string) =>
  (await injectOk(testApp.app, 'GET', `/api/clients/${id}/entries?limit=100`, cookie)).json<{
    entries: Entry[];
  }>().entries;

const statement = [
  'Date,Description,Amount,Balance',
  '2026-03-02,IBG ZOE MULLER INV-31,150.00,1150.00',
  '2026-03-03,CARD FEE,-2.00,1148.00',
  '2026-03-04,TRANSFER FROM ACME,80.00,1228.00',
].join('\n');
const mapping = { date: 0, description: 1, amount: 2, balance: 3, dateOrder: 'YMD', decimal: '.' };

const preview = (cookie: string, csv = statement, label = 'Main account') =>
  testApp.app.inject({
    method: 'POST',
    url: '/api/bank/preview',
    headers: { cookie },
    payload: {
      accountLabel: label,
      currency: 'USD',
      mapping,
      file: Buffer.from(csv).toString('base64'),
    },
  });

const confirmBody = (lines: PreviewLine[], clientIds: string[]) => ({
  accountLabel: 'Main account',
  currency: 'USD',
  lines: lines.map(({ line, date, amount, description, reference, balance }, index) => ({
    line,
    date,
    amount,
    description,
    reference,
    balance,
    allocations: [{ clientId: clientIds[index] as string, amount }],
  })),
});

const confirm = (cookie: string, body: object) =>
  testApp.app.inject({
    method: 'POST',
    url: '/api/bank/confirm',
    headers: { cookie },
    payload: body,
  });

async function seeded() {
  const { cookie, userId } = await joinAs(testApp.app);
  const zoe = await add(cookie, { firstName: 'Zoé', lastName: 'Müller', balance: 15_000 });
  const acme = await add(cookie, { firstName: 'Acme', lastName: 'Supplies', balance: 8_000 });
  await add(cookie, { firstName: 'Other', lastName: 'Currency', balance: 8_000, currency: 'MYR' });
  return { cookie, userId, zoe, acme };
}

describe('bank statement import', () => {
  it('previews the incoming lines with who paid, and records them once', async () => {
    const { cookie, zoe, acme } = await seeded();
    const first = await preview(cookie);
    expect(first.statusCode, first.body).toBe(200);
    const { lines, clients, skipped } = first.json<BankPreview>();
    expect(skipped).toBe(1);
    // Each pays its client's opening balance, which the preview names (issue 57).
    const opening = (amount: number) => ({
      entryId: expect.any(Number) as number,
      reference: '',
      note: '',
      date: expect.any(String) as string,
      openAmount: amount,
    });
    expect(lines.map((line) => [line.amount, line.alreadyRecorded, line.suggestions[0]])).toEqual([
      [
        15_000,
        false,
        { clientId: zoe.id, reason: 'name', confidence: 'high', pays: [opening(15_000)] },
      ],
      [
        8_000,
        false,
        { clientId: acme.id, reason: 'amount', confidence: 'medium', pays: [opening(8_000)] },
      ],
    ]);
    // Every client suggested comes named, once; no other client (the MYR one) is sent.
    const suggested = new Set(lines.flatMap((line) => line.suggestions.map((s) => s.clientId)));
    expect(clients.map((client) => client.id).sort()).toEqual([...suggested].sort());
    expect([...clients].sort((a, b) => a.firstName.localeCompare(b.firstName))).toEqual([
      { id: acme.id, firstName: 'Acme', lastName: 'Supplies', company: '' },
      { id: zoe.id, firstName: 'Zoé', lastName: 'Müller', company: '' },
    ]);

    const recorded = await confirm(cookie, confirmBody(lines, [zoe.id, acme.id]));
    expect(recorded.statusCode, recorded.body).toBe(200);
    const answer = recorded.json<BankConfirmed>();
    expect(answer.recorded).toHaveLength(2);
    expect(answer.alreadyRecorded).toEqual([]);
    expect((await read(cookie, zoe.id)).balance).toBe(0);
    const [payment] = (await entriesOf(cookie, zoe.id)).filter((entry) => entry.kind === 'payment');
    expect(payment).toMatchObject({
      amount: -15_000,
      date: '2026-03-02',
      note: 'IBG ZOE MULLER INV-31',
    });

    // The same statement again, and one that overlaps it: nothing is recorded twice.
    const again = (await preview(cookie)).json<BankPreview>();
    expect(again.lines.map((line) => line.alreadyRecorded)).toEqual([true, true]);
    const twice = (
      await confirm(cookie, confirmBody(again.lines, [zoe.id, acme.id]))
    ).json<BankConfirmed>();
    expect(twice).toEqual({
      batchId: null,
      recorded: [],
      alreadyRecorded: again.lines.map((l) => l.id),
    });
    expect((await read(cookie, acme.id)).balance).toBe(0);
  });

  it('records a payment against the charges the preview named, as the owner kept them (issue 57)', async () => {
    const { cookie } = await joinAs(testApp.app);
    const rahman = await add(cookie, { firstName: 'Ahmad', lastName: 'Rahman', balance: 0 });
    const charge = async (amount: number, date: string, reference: string) =>
      (
        await injectOk(testApp.app, 'POST', `/api/clients/${rahman.id}/entries`, cookie, {
          kind: 'charge',
          amount,
          date,
          reference,
        })
      ).json<{ entry: { entryId: number } }>().entry.entryId;
    const old = await charge(10_000, '2026-01-05', 'INV-2201');
    const march = await charge(4_000, '2026-03-01', 'INV-2210');
    const april = await charge(2_500, '2026-03-20', 'INV-2214');
    const csv = [
      'Date,Description,Amount,Balance',
      // Two of the newer charges, by their references.
      '2026-04-02,AHMAD RAHMAN INV-2210/2214,65.00,100.00',
    ].join('\n');
    const { lines } = (await preview(cookie, csv)).json<BankPreview>();
    const [line] = lines;
    expect(line?.suggestions[0]?.pays?.map((paid) => paid.entryId)).toEqual([march, april]);
    const body = confirmBody(lines, [rahman.id]);
    body.lines[0]?.allocations.forEach((part) => Object.assign(part, { pays: [march, april] }));
    expect((await confirm(cookie, body)).statusCode).toBe(200);
    const open = Object.fromEntries(
      (await entriesOf(cookie, rahman.id))
        .filter((entry) => entry.kind === 'charge')
        .map((entry) => [entry.id, entry.open]),
    );
    // Oldest first would have left 3,500 of the oldest unpaid; the named ones are paid instead.
    expect(open).toEqual({ [old]: 10_000, [march]: 0, [april]: 0 });
    const payment = (await entriesOf(cookie, rahman.id)).find((entry) => entry.kind === 'payment');
    expect(payment?.pays.map((paid) => paid.label)).toEqual(['INV-2210', 'INV-2214']);
  });

  it('settles oldest first a line whose named charges were paid since', async () => {
    const { cookie } = await joinAs(testApp.app);
    const client = await add(cookie, { firstName: 'Ahmad', lastName: 'Rahman', balance: 3_000 });
    const named = (
      await injectOk(testApp.app, 'POST', `/api/clients/${client.id}/entries`, cookie, {
        kind: 'charge',
        amount: 2_000,
        reference: 'INV-9',
      })
    ).json<{ entry: { entryId: number } }>().entry.entryId;
    const csv = [
      'Date,Description,Amount,Balance',
      '2026-04-02,AHMAD RAHMAN INV-9,20.00,100.00',
      '2026-04-03,AHMAD RAHMAN INV-9,20.00,120.00',
    ].join('\n');
    const { lines } = (await preview(cookie, csv)).json<BankPreview>();
    const body = confirmBody(lines, [client.id, client.id]);
    body.lines.forEach((each) =>
      each.allocations.forEach((part) => Object.assign(part, { pays: [named] })),
    );
    expect((await confirm(cookie, body)).statusCode).toBe(200);
    const payments = (await entriesOf(cookie, client.id)).filter((e) => e.kind === 'payment');
    expect(payments.map((payment) => payment.pays.map((paid) => paid.id))).toEqual([[named], []]);
    expect((await read(cookie, client.id)).balance).toBe(1_000);
  });

  it('remembers a confirmed payer for the next statement', async () => {
    const { cookie, acme } = await seeded();
    const csv = 'Date,Description,Amount,Balance\n2026-03-05,HANBIT TRADING CO 0305,12.34,10.00\n';
    const [unknown] = (await preview(cookie, csv)).json<BankPreview>().lines;
    expect(unknown?.suggestions).toEqual([]);
    await injectOk(
      testApp.app,
      'POST',
      '/api/bank/confirm',
      cookie,
      confirmBody([unknown as PreviewLine], [acme.id]),
    );
    // Acme's balance left, from the payer learned: certain, and it says where it was learned.
    const next = 'Date,Description,Amount,Balance\n2026-04-05,HANBIT TRADING CO 0405,67.66,20.00\n';
    const [learned] = (await preview(cookie, next)).json<BankPreview>().lines;
    expect(learned?.suggestions[0]).toEqual({
      clientId: acme.id,
      reason: 'rule',
      confidence: 'high',
      learned: { at: anyText, accountLabel: 'Main account', line: 2, from: 'manual' },
      // What is left of the opening balance.
      pays: [
        {
          entryId: expect.any(Number) as number,
          reference: '',
          note: '',
          date: expect.any(String) as string,
          openAmount: 6_766,
        },
      ],
    });
    // An amount Acme owes nothing of: still Acme, not certain.
    const other =
      'Date,Description,Amount,Balance\n2026-04-06,HANBIT TRADING CO 0406,99.00,20.00\n';
    const [unsure] = (await preview(cookie, other)).json<BankPreview>().lines;
    expect(unsure?.suggestions[0]).toMatchObject({
      clientId: acme.id,
      reason: 'rule',
      confidence: 'medium',
      caution: { kind: 'amount' },
    });
  });

  it('forgets a payer text confirmed for two different clients', async () => {
    const { cookie, zoe, acme } = await seeded();
    const generic = (day: string, amount: string, balance: string) =>
      `Date,Description,Amount,Balance\n2026-03-${day},CASH DEPOSIT,${amount},${balance}\n`;
    for (const [csv, client] of [
      [generic('06', '1.00', '1.00'), zoe],
      [generic('07', '2.00', '3.00'), acme],
    ] as const) {
      const [line] = (await preview(cookie, csv)).json<BankPreview>().lines;
      await injectOk(
        testApp.app,
        'POST',
        '/api/bank/confirm',
        cookie,
        confirmBody([line as PreviewLine], [client.id]),
      );
    }
    const [next] = (await preview(cookie, generic('08', '3.33', '6.33'))).json<BankPreview>().lines;
    expect(next?.suggestions).toEqual([]);
  });

  it('lists the learned payers and forgets one, through the write path', async () => {
    const { cookie, userId, zoe, acme } = await seeded();
    const payer = (description: string, day: string) =>
      `Date,Description,Amount,Balance\n2026-03-${day},${description},1.00,${day}.00\n`;
    for (const [csv, client] of [
      [payer('HANBIT TRADING CO 0305', '05'), acme],
      [payer('CASH DEPOSIT', '06'), zoe],
      [payer('CASH DEPOSIT', '07'), acme],
    ] as const) {
      const [line] = (await preview(cookie, csv)).json<BankPreview>().lines;
      await injectOk(
        testApp.app,
        'POST',
        '/api/bank/confirm',
        cookie,
        confirmBody([line as PreviewLine], [client.id]),
      );
    }
    const rules = async (who = cookie) =>
      (await injectOk(testApp.app, 'GET', '/api/bank/rules', who)).json<BankRuleList>().rules;
    expect(await rules()).toEqual([
      {
        id: anyText,
        payerKey: 'cash deposit',
        client: null,
        updatedAt: anyText,
        learned: { at: anyText, accountLabel: 'Main account', line: 2, from: 'manual' },
      },
      {
        id: anyText,
        payerKey: 'hanbit trading co',
        client: { id: acme.id, firstName: 'Acme', lastName: 'Supplies' },
        updatedAt: anyText,
        learned: { at: anyText, accountLabel: 'Main account', line: 2, from: 'manual' },
      },
    ]);
    const stranger = await joinAs(testApp.app);
    expect(await rules(stranger.cookie)).toEqual([]);
    const ids = Object.fromEntries((await rules()).map((rule) => [rule.payerKey, rule.id]));
    const forget = (key: string, who = cookie) =>
      testApp.app.inject({
        method: 'DELETE',
        url: `/api/bank/rules/${ids[key] ?? key}`,
        headers: { cookie: who },
      });
    // Another owner's payer is answered like a missing one, and stays.
    expect((await forget('hanbit trading co', stranger.cookie)).statusCode).toBe(404);
    const events = () =>
      testApp.app.db.kysely
        .selectFrom('events')
        .select('action')
        .where('book_id', '=', userId)
        .where('action', '=', 'settings_changed')
        .execute();
    const before = (await events()).length;
    expect((await forget('hanbit trading co')).statusCode).toBe(204);
    expect((await events()).length).toBe(before + 1);
    expect((await forget('hanbit trading co')).statusCode).toBe(404);
    expect((await rules()).map((rule) => rule.payerKey)).toEqual(['cash deposit']);
    const next = payer('HANBIT TRADING CO 0405', '08');
    expect((await preview(cookie, next)).json<BankPreview>().lines[0]?.suggestions).toEqual([]);
    // A generic text forgotten may be learned again.
    expect((await forget('cash deposit')).statusCode).toBe(204);
    const [cash] = (await preview(cookie, payer('CASH DEPOSIT', '09'))).json<BankPreview>().lines;
    await injectOk(
      testApp.app,
      'POST',
      '/api/bank/confirm',
      cookie,
      confirmBody([cash as PreviewLine], [zoe.id]),
    );
    expect((await rules())[0]?.client?.id).toBe(zoe.id);
    expect((await forget('not-an-id')).statusCode).toBe(404);
  });

  it('shows a bank payment with its account on the ledger, and its bank reference to the client', async () => {
    const { cookie, zoe } = await seeded();
    // Within the client link's 90 days.
    const day = addDays(utcDay(), -3);
    const csv = `Date,Description,Amount,Balance,Ref\n${day},IBG ZOE MULLER,150.00,150.00,FT24061XYZ\n`;
    const response = await testApp.app.inject({
      method: 'POST',
      url: '/api/bank/preview',
      headers: { cookie },
      payload: {
        accountLabel: 'Maybank business 4410',
        currency: 'USD',
        mapping: { ...mapping, reference: 4 },
        file: Buffer.from(csv).toString('base64'),
      },
    });
    const { lines } = response.json<BankPreview>();
    const { batchId } = (
      await injectOk(testApp.app, 'POST', '/api/bank/confirm', cookie, {
        ...confirmBody(lines, [zoe.id]),
        accountLabel: 'Maybank business 4410',
      })
    ).json<BankConfirmed>();
    const ledger = await entriesOf(cookie, zoe.id);
    const opening = ledger.find((entry) => entry.kind === 'opening');
    const payment = ledger.find((entry) => entry.kind === 'payment');
    expect(opening?.bank).toBeNull();
    expect(payment).toMatchObject({
      kind: 'payment',
      note: 'IBG ZOE MULLER',
      reference: 'FT24061XYZ',
      bank: { account: 'Maybank business 4410' },
      method: 'bank_transfer',
    });

    // The client sees the bank's reference, never the owner's name for the account.
    const described = 'Payment (bank transfer): FT24061XYZ · IBG ZOE MULLER';
    const period = `from=${addDays(day, -1)}&to=${day}`;
    const statement = (
      await injectOk(testApp.app, 'GET', `/api/clients/${zoe.id}/statement?${period}`, cookie)
    ).json<Statement>();
    expect(statement.lines.map((line) => line.description)).toEqual([described]);
    const csvFile = await injectOk(
      testApp.app,
      'GET',
      `/api/clients/${zoe.id}/statement.csv?${period}`,
      cookie,
    );
    expect(csvFile.body).toContain(described);
    const pdf = await injectOk(
      testApp.app,
      'GET',
      `/api/clients/${zoe.id}/statement.pdf?${period}`,
      cookie,
    );
    const { text } = await pdfText(pdf.rawPayload);
    expect(text).toContain('Payment (bank transfer)');
    expect(text).toContain('FT24061XYZ');
    const link = (
      await injectOk(testApp.app, 'POST', `/api/clients/${zoe.id}/link`, cookie, {})
    ).json<CreatedClientLink>();
    const page = await testApp.app.inject({ method: 'GET', url: link.path });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain(described);
    for (const shown of [JSON.stringify(statement), csvFile.body, text, page.body])
      expect(shown).not.toContain('Maybank');

    // Undone: the voided payment still says it came from the bank, its import gone.
    await injectOk(testApp.app, 'POST', `/api/bank/batches/${batchId}/undo`, cookie);
    const voided = (await entriesOf(cookie, zoe.id)).find((entry) => entry.id === payment?.id);
    expect(voided?.bank).toEqual({ account: null });
  });

  it('splits a line across clients, and refuses parts that do not add up', async () => {
    const { cookie, zoe, acme } = await seeded();
    const [line] = (await preview(cookie)).json<BankPreview>().lines;
    const body = confirmBody([line as PreviewLine], [zoe.id]);
    const split = (parts: number[]) => ({
      ...body,
      lines: [
        {
          ...body.lines[0],
          allocations: [
            { clientId: zoe.id, amount: parts[0] },
            { clientId: acme.id, amount: parts[1] },
          ],
        },
      ],
    });
    const wrong = await confirm(cookie, split([10_000, 4_000]));
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json()).toMatchObject({
      error: { fields: { 'lines.0.allocations': 'The parts must add up to the amount.' } },
    });
    const right = await confirm(cookie, split([10_000, 5_000]));
    expect(right.json<BankConfirmed>().recorded[0]?.entryIds).toHaveLength(2);
    expect((await read(cookie, zoe.id)).balance).toBe(5_000);
    expect((await read(cookie, acme.id)).balance).toBe(3_000);
  });

  it('refuses a client of another currency or another owner', async () => {
    const { cookie, zoe } = await seeded();
    const stranger = await joinAs(testApp.app);
    const theirs = await add(stranger.cookie, { balance: 15_000 });
    const myr = await add(cookie, { currency: 'MYR', balance: 1 });
    const [line] = (await preview(cookie)).json<BankPreview>().lines;
    for (const clientId of [theirs.id, myr.id]) {
      const refused = await confirm(cookie, confirmBody([line as PreviewLine], [clientId]));
      expect(refused.statusCode).toBe(400);
    }
    expect((await read(stranger.cookie, theirs.id)).balance).toBe(15_000);
    expect((await read(cookie, zoe.id)).balance).toBe(15_000);
  });

  it('records a line once when two tabs confirm it at the same moment', async () => {
    const { cookie, zoe, acme } = await seeded();
    const { lines } = (await preview(cookie)).json<BankPreview>();
    const body = confirmBody(lines, [zoe.id, acme.id]);
    const answers = await Promise.all([
      confirm(cookie, body),
      confirm(cookie, body),
      confirm(cookie, body),
    ]);
    expect(answers.map((answer) => answer.statusCode)).toEqual([200, 200, 200]);
    const recorded = answers.flatMap((answer) => answer.json<BankConfirmed>().recorded);
    expect(recorded).toHaveLength(2);
    const payments = (await entriesOf(cookie, zoe.id)).filter((entry) => entry.kind === 'payment');
    expect(payments).toHaveLength(1);
    expect((await read(cookie, zoe.id)).balance).toBe(0);
  });

  it('undoes a batch by voiding its payments; its lines may be recorded again', async () => {
    const { cookie, zoe, acme } = await seeded();
    const { lines } = (await preview(cookie)).json<BankPreview>();
    const { batchId } = (
      await confirm(cookie, confirmBody(lines, [zoe.id, acme.id]))
    ).json<BankConfirmed>();
    const undo = () =>
      testApp.app.inject({
        method: 'POST',
        url: `/api/bank/batches/${batchId}/undo`,
        headers: { cookie },
      });
    const [once, twice] = await Promise.all([undo(), undo()]);
    expect([once?.statusCode, twice?.statusCode].sort()).toEqual([200, 409]);
    expect((await read(cookie, zoe.id)).balance).toBe(15_000);
    const voids = (await entriesOf(cookie, zoe.id)).filter((entry) => entry.kind === 'void');
    expect(voids.map((entry) => entry.note)).toEqual(['bank import undone']);
    const after = (await preview(cookie)).json<BankPreview>();
    expect(after.lines.map((line) => line.alreadyRecorded)).toEqual([false, false]);
    const stranger = await joinAs(testApp.app);
    const theirs = await testApp.app.inject({
      method: 'POST',
      url: `/api/bank/batches/${batchId}/undo`,
      headers: { cookie: stranger.cookie },
    });
    expect(theirs.statusCode).toBe(404);
  });

  it('learns a payer only where it is safe, and its undo forgets what it taught', async () => {
    const { cookie, zoe, acme } = await seeded();
    const rules = async () =>
      (await injectOk(testApp.app, 'GET', '/api/bank/rules', cookie))
        .json<BankRuleList>()
        .rules.map((rule) => [rule.payerKey, rule.client?.id ?? null, rule.learned.from]);
    const confirmed = async (csv: string, clientIds: string[]) => {
      const { lines } = (await preview(cookie, csv)).json<BankPreview>();
      return (await confirm(cookie, confirmBody(lines, clientIds))).json<BankConfirmed>().batchId;
    };
    const header = 'Date,Description,Amount,Balance\n';
    // A first import teaches that a cash deposit is Zoé's.
    await confirmed(`${header}2026-03-01,CASH DEPOSIT,1.00,1.00\n`, [zoe.id]);
    expect(await rules()).toEqual([['cash deposit', zoe.id, 'manual']]);
    // The next one: a new payer (learned), the cash deposit for Acme (names nobody from then
    // on), and Zoé paying for Acme (not learned: her name is hers, not Acme's).
    const batchId = await confirmed(
      `${header}2026-03-05,HANBIT TRADING CO 0305,2.00,3.00\n` +
        `2026-03-06,CASH DEPOSIT,3.00,6.00\n` +
        `2026-03-07,IBG ZOE MULLER FOR ACME,4.00,10.00\n`,
      [acme.id, acme.id, acme.id],
    );
    expect(await rules()).toEqual([
      ['cash deposit', null, 'manual'],
      ['hanbit trading co', acme.id, 'manual'],
    ]);
    const undone = await testApp.app.inject({
      method: 'POST',
      url: `/api/bank/batches/${batchId}/undo`,
      headers: { cookie },
    });
    expect(undone.statusCode, undone.body).toBe(200);
    // What it taught is forgotten, what it changed given back as the first import left it.
    expect(await rules()).toEqual([['cash deposit', zoe.id, 'manual']]);
    const [cash] = (
      await preview(cookie, `${header}2026-04-01,CASH DEPOSIT,9.00,1.00\n`)
    ).json<BankPreview>().lines;
    expect(cash?.suggestions[0]).toMatchObject({ clientId: zoe.id, reason: 'rule' });
  });

  it('takes the same steps with a read-write token', async () => {
    const { cookie, zoe, acme } = await seeded();
    const made = await injectOk(testApp.app, 'POST', '/api/tokens', cookie, {
      name: 'Bank script',
      access: 'read-write',
    });
    const authorization = `Bearer ${made.json<{ secret: string }>().secret}`;
    const withToken = (url: string, payload?: object) =>
      testApp.app.inject({
        method: 'POST',
        url,
        headers: { authorization },
        ...(payload && { payload }),
      });
    const { lines } = (
      await withToken('/api/bank/preview', {
        accountLabel: 'Main account',
        currency: 'USD',
        mapping,
        file: Buffer.from(statement).toString('base64'),
      })
    ).json<BankPreview>();
    const confirmed = await withToken('/api/bank/confirm', confirmBody(lines, [zoe.id, acme.id]));
    expect(confirmed.statusCode, confirmed.body).toBe(200);
    const { batchId } = confirmed.json<BankConfirmed>();
    const undone = await withToken(`/api/bank/batches/${batchId}/undo`);
    expect(undone.json()).toEqual({ voided: 2 });
  });

  it('names the line and column of a bad cell, and refuses a file in another encoding', async () => {
    const { cookie } = await seeded();
    const bad = await preview(
      cookie,
      'Date,Description,Amount\n2026-03-02,X,1.00\n2026-03-40,Y,2.00\n',
    );
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({
      error: {
        code: 'validation',
        message: 'Line 3, column 1: this is not a date in the order chosen.',
      },
    });
  });

  it('refuses a 4 MB CSV that is no statement before parsing it, naming what is wrong', async () => {
    // Issue 54: 4 MB of quotes held the server for seconds in the CSV parser.
    const { cookie } = await joinAs(testApp.app);
    const fill = 4 * 1024 * 1024 - 4096;
    const head = 'Date,Description,Amount\n';
    const refused = async (csv: string, message: string) => {
      const answer = await preview(cookie, csv);
      expect(answer.statusCode, answer.body).toBe(400);
      expect(answer.json()).toMatchObject({ error: { code: 'validation', message } });
    };
    await refused('"'.repeat(fill), 'Line 1 is longer than 10000 characters.');
    await refused(
      `${head}2026-03-02,"${'""'.repeat(fill / 2)}",1.00\n`,
      'Line 2 is longer than 10000 characters.',
    );
    await refused(head + 'x'.repeat(fill), 'Line 2 is longer than 10000 characters.');
    await refused(
      `${head}"${'a,b,c\n'.repeat(fill / 6)}`,
      'Line 2: a quote opens here and is never closed.',
    );
    await refused(head + ','.repeat(fill), 'Line 2 has more than 200 columns.');
    await refused(head + `"a\r\n",`.repeat(fill / 7), 'Line 2 has more than 200 columns.');
    await refused(head + '\n'.repeat(fill), 'The file has more than 50000 rows.');
    await refused(
      head + `${','.repeat(150)}\n`.repeat(fill / 151),
      'The file has more than 1000000 cells.',
    );
  });

  it('remembers the mapping of a layout on confirm, and the accounts imported under', async () => {
    const { cookie, zoe, acme } = await seeded();
    const layouts = async (who = cookie) =>
      (await injectOk(testApp.app, 'GET', '/api/bank/layouts', who)).json<BankLayouts>();
    expect(await layouts()).toEqual({ layouts: [], accounts: [] });

    const key = bankLayoutKey(['Date', 'Description', 'Amount', 'Balance']);
    const { lines } = (await preview(cookie)).json<BankPreview>();
    const [first, second] = lines as [PreviewLine, PreviewLine];
    const withLayout = (chosen: PreviewLine[], ids: string[], decimal: string) => ({
      ...confirmBody(chosen, ids),
      layout: { key, mapping: { ...mapping, decimal } },
    });
    expect((await confirm(cookie, withLayout([first], [zoe.id], '.'))).statusCode).toBe(200);
    expect(await layouts()).toEqual({
      layouts: [
        {
          key,
          mapping: { ...mapping, skipRows: 1, encoding: 'utf-8' },
          updatedAt: expect.any(String) as unknown,
        },
      ],
      accounts: [{ label: 'Main account', currency: 'USD' }],
    });

    // The next confirm of that layout replaces its mapping; another account is listed first.
    const other = { ...withLayout([second], [acme.id], ','), accountLabel: 'Savings' };
    expect((await confirm(cookie, other)).statusCode).toBe(200);
    const now = await layouts();
    expect(now.layouts.map((layout) => [layout.key, layout.mapping.decimal])).toEqual([[key, ',']]);
    expect(now.accounts).toEqual([
      { label: 'Savings', currency: 'USD' },
      { label: 'Main account', currency: 'USD' },
    ]);

    // Another owner sees none of it; a key that is not ours is refused.
    const stranger = await joinAs(testApp.app);
    expect(await layouts(stranger.cookie)).toEqual({ layouts: [], accounts: [] });
    const badKey = await confirm(cookie, {
      ...withLayout([first], [zoe.id], '.'),
      layout: { key: 'not a key', mapping },
    });
    expect(badKey.statusCode).toBe(400);
  });
});
