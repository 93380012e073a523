import type { Generated, Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../../../tests/app.ts';
import { joinAs } from '../../../../tests/auth.ts';
import { buildClient } from '../../../../tests/factories.ts';
import { injectOk } from '../../../../tests/http.ts';
import { oldDatabases } from '../../../../tests/old-database.ts';
import type {
  BankConfirmed,
  BankFormat,
  BankPreview,
  PreviewLine,
} from '../../../shared/schemas/bank.ts';
import type { Client, ClientInput } from '../../../shared/schemas/clients.ts';
import type { Entry } from '../../../shared/schemas/ledger.ts';

// A statement's lines as payments, each once: identical lines of one file (twins) are separate
// payments, and a line whose payment is gone (its client deleted, the payment voided) is offered
// again (docs/decisions/033-bank-lines-kept-apart-and-freed.md).

let testApp: TestApp;
beforeAll(async () => {
  testApp = await buildTestApp();
});
afterAll(async () => {
  await testApp.close();
});

/** The rows as the code before migration 0035 wrote them: the owner's, not a book's. */
interface OldTables {
  clients: {
    id: string;
    owner_id: string;
    first_name: string;
    last_name: string;
    name_key: string;
    email: string;
    phone: string;
    balance: number;
    currency: string;
    version: number;
    created_at: number;
    updated_at: number;
  };
  bank_batches: {
    id: string;
    owner_id: string;
    account_label: string;
    currency: string;
    created_at: number;
    undone_at: number | null;
  };
  bank_lines: { owner_id: string; line_id: string; batch_id: string; created_at: number };
  entries: {
    id: Generated<number>;
    owner_id: string;
    client_id: string;
    kind: string;
    amount: number;
    currency: string;
    occurred_on: string;
    due_on: string | null;
    note: string;
    void_of: number | null;
    created_by: string | null;
    created_at: number;
    bank_line_id: string | null;
  };
}

const add = async (cookie: string, values: Partial<ClientInput>) =>
  (await injectOk(testApp.app, 'POST', '/api/clients', cookie, buildClient(values))).json<Client>();
const read = async (cookie: string, id: string) =>
  (await injectOk(testApp.app, 'GET', `/api/clients/${id}`, cookie)).json<Client>();
const entriesOf = async (cookie: string, id: string) =>
  (await injectOk(testApp.app, 'GET', `/api/clients/${id}/entries?limit=100`, cookie)).json<{
    entries: Entry[];
  }>().entries;

const csvMapping = { date: 0, description: 1, amount: 2, dateOrder: 'YMD', decimal: '.' };

const previewOf = (cookie: string, file: string, format: BankFormat = 'csv') =>
  testApp.app.inject({
    method: 'POST',
    url: '/api/bank/preview',
    headers: { cookie },
    payload: {
      accountLabel: 'Main account',
      currency: 'USD',
      format,
      ...(format === 'csv' && { mapping: csvMapping }),
      file: Buffer.from(file).toString('base64'),
    },
  });

async function previewed(cookie: string, file: string, format: BankFormat = 'csv') {
  const answer = await previewOf(cookie, file, format);
  expect(answer.statusCode, answer.body).toBe(200);
  return answer.json<BankPreview>();
}

/** Every line sent back as the preview gave it (as the screen does), paid by one client. */
const confirmAll = (lines: PreviewLine[], clientId: string) => ({
  accountLabel: 'Main account',
  currency: 'USD',
  lines: lines.map(({ id: _id, alreadyRecorded: _recorded, suggestions: _s, ...line }) => ({
    ...line,
    allocations: [{ clientId, amount: line.amount }],
  })),
});

const confirm = async (cookie: string, body: object) => {
  const answer = await testApp.app.inject({
    method: 'POST',
    url: '/api/bank/confirm',
    headers: { cookie },
    payload: body,
  });
  expect(answer.statusCode, answer.body).toBe(200);
  return answer.json<BankConfirmed>();
};

const payments = async (cookie: string, id: string) =>
  (await entriesOf(cookie, id)).filter((entry) => entry.kind === 'payment' && !entry.voidedBy);

async function owner() {
  const { cookie } = await joinAs(testApp.app);
  const client = await add(cookie, { firstName: 'Zoé', lastName: 'Müller', balance: 100_000 });
  return { cookie, client };
}

const csvOf = (...rows: string[]) => ['Date,Description,Amount', ...rows].join('\n');
const twin = '2026-03-02,CASH DEPOSIT,50.00';

const ofxOf = (count: number) =>
  [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<?OFX OFXHEADER="200" VERSION="220" SECURITY="NONE" OLDFILEUID="NONE" NEWFILEUID="NONE"?>',
    '<OFX><BANKMSGSRSV1><STMTTRNRS><TRNUID>1</TRNUID><STMTRS><CURDEF>USD</CURDEF>',
    '<BANKACCTFROM><BANKID>1</BANKID><ACCTID>42</ACCTID><ACCTTYPE>CHECKING</ACCTTYPE></BANKACCTFROM>',
    '<BANKTRANLIST><DTSTART>20260301</DTSTART><DTEND>20260331</DTEND>',
    // Without FITID: a bank that leaves it out is read by the line's fields.
    ...Array.from(
      { length: count },
      () =>
        '<STMTTRN><TRNTYPE>CREDIT</TRNTYPE><DTPOSTED>20260302</DTPOSTED><TRNAMT>50.00</TRNAMT><NAME>CASH DEPOSIT</NAME></STMTTRN>',
    ),
    '</BANKTRANLIST></STMTRS></STMTTRNRS></BANKMSGSRSV1></OFX>',
  ].join('\n');

const camtOf = (count: number) =>
  [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<Document xmlns="urn:iso:std:iso:20022:tech:xsd:camt.053.001.08"><BkToCstmrStmt>',
    '<GrpHdr><MsgId>1</MsgId><CreDtTm>2026-03-31T00:00:00</CreDtTm></GrpHdr>',
    '<Stmt><Id>1</Id><Acct><Id><IBAN>DE89370400440532013000</IBAN></Id><Ccy>USD</Ccy></Acct>',
    // Without AcctSvcrRef.
    ...Array.from(
      { length: count },
      () =>
        '<Ntry><Amt Ccy="USD">50.00</Amt><CdtDbtInd>CRDT</CdtDbtInd><Sts><Cd>BOOK</Cd></Sts><BookgDt><Dt>2026-03-02</Dt></BookgDt><AddtlNtryInf>CASH DEPOSIT</AddtlNtryInf></Ntry>',
    ),
    '</Stmt></BkToCstmrStmt></Document>',
  ].join('\n');

describe('identical lines of one statement', () => {
  const formats: [string, BankFormat, (count: number) => string][] = [
    ['CSV', 'csv', (count) => csvOf('2026-03-01,RENT,10.00', ...Array<string>(count).fill(twin))],
    ['OFX without FITID', 'ofx', ofxOf],
    ['camt.053 without AcctSvcrRef', 'camt053', camtOf],
  ];
  it.each(formats)(
    '%s: are separate payments, recorded once each, and told on the screen',
    async (_name, format, fileOf) => {
      const { cookie, client } = await owner();
      const first = await previewed(cookie, fileOf(2), format);
      const twins = first.lines.filter((line) => line.description === 'CASH DEPOSIT');
      expect(twins).toHaveLength(2);
      expect(new Set(twins.map((line) => line.id)).size).toBe(2);
      expect(twins.map((line) => line.alreadyRecorded)).toEqual([false, false]);
      expect(first.twins).toBe(2);
      const recorded = await confirm(cookie, confirmAll(first.lines, client.id));
      expect(recorded.recorded).toHaveLength(first.lines.length);
      expect(recorded.alreadyRecorded).toEqual([]);
      expect(
        (await payments(cookie, client.id)).filter((entry) => entry.note === 'CASH DEPOSIT'),
      ).toHaveLength(2);

      // The same file again: nothing new.
      const again = await previewed(cookie, fileOf(2), format);
      expect(again.lines.map((line) => line.alreadyRecorded)).toEqual(first.lines.map(() => true));
      expect((await confirm(cookie, confirmAll(again.lines, client.id))).batchId).toBeNull();

      // A later statement with a third identical line: that one only is new.
      const third = await previewed(cookie, fileOf(3), format);
      expect(
        third.lines.filter((line) => !line.alreadyRecorded).map((line) => line.description),
      ).toEqual(['CASH DEPOSIT']);
      const once = await confirm(cookie, confirmAll(third.lines, client.id));
      expect(once.recorded).toHaveLength(1);
      expect(
        (await payments(cookie, client.id)).filter((entry) => entry.note === 'CASH DEPOSIT'),
      ).toHaveLength(3);
    },
  );

  it('records a bank id reused for another payment, and a transaction listed twice once', async () => {
    const { cookie, client } = await owner();
    const fitid = (amount: string, name: string) =>
      `<STMTTRN><TRNTYPE>CREDIT</TRNTYPE><DTPOSTED>20260302</DTPOSTED><TRNAMT>${amount}</TRNAMT><FITID>0302</FITID><NAME>${name}</NAME></STMTTRN>`;
    const file = ofxOf(0).replace(
      '</BANKTRANLIST>',
      `${fitid('50.00', 'CASH DEPOSIT')}${fitid('70.00', 'IBG ZOE')}${fitid('50.00', 'CASH DEPOSIT')}</BANKTRANLIST>`,
    );
    const first = await previewed(cookie, file, 'ofx');
    expect(first.lines.map((line) => line.occurrence)).toEqual([1, 2, 1]);
    expect(first.twins).toBe(0);
    const recorded = await confirm(cookie, confirmAll(first.lines, client.id));
    expect(recorded.recorded).toHaveLength(2);
    expect(recorded.alreadyRecorded).toHaveLength(1);
    expect(
      (await payments(cookie, client.id)).map((entry) => entry.amount).sort((a, b) => a - b),
    ).toEqual([-7_000, -5_000]);
    const again = await previewed(cookie, file, 'ofx');
    expect(again.lines.map((line) => line.alreadyRecorded)).toEqual([true, true, true]);
  });

  it('keeps the identity of a line recorded before identical lines were told apart', async () => {
    const { cookie, client } = await owner();
    // One line alone has the identity it always had: a statement that overlaps finds it.
    const alone = await previewed(cookie, csvOf(twin));
    expect(alone.twins).toBe(0);
    await confirm(cookie, confirmAll(alone.lines, client.id));
    const both = await previewed(cookie, csvOf(twin, twin));
    expect(both.lines.map((line) => [line.alreadyRecorded, line.occurrence])).toEqual([
      [true, 1],
      [false, 2],
    ]);
    expect(both.lines[0]?.id).toBe(alone.lines[0]?.id);
  });

  it('counts identical lines in a confirm that does not say which occurrence each is', async () => {
    const { cookie, client } = await owner();
    const { lines } = await previewed(cookie, csvOf(twin, twin));
    // A script that sends back the bank's fields only.
    const body = confirmAll(lines, client.id);
    const bare = {
      ...body,
      lines: body.lines.map(({ occurrence: _occurrence, ...line }) => line),
    };
    expect((await confirm(cookie, bare)).recorded).toHaveLength(2);
    expect(
      (await previewed(cookie, csvOf(twin, twin))).lines.map((l) => l.alreadyRecorded),
    ).toEqual([true, true]);
  });
});

describe('a line whose payment is gone', () => {
  it('is offered again once its client is deleted', async () => {
    const { cookie, client } = await owner();
    const other = await add(cookie, { firstName: 'Acme', lastName: 'Supplies', balance: 100_000 });
    const file = csvOf('2026-03-02,IBG ZOE MULLER,150.00', '2026-03-03,TRANSFER ACME,80.00');
    const { lines } = await previewed(cookie, file);
    const body = confirmAll(lines, client.id);
    (body.lines[1] as { allocations: unknown }).allocations = [
      { clientId: other.id, amount: 8_000 },
    ];
    await confirm(cookie, body);
    const response = await testApp.app.inject({
      method: 'DELETE',
      url: `/api/clients/${client.id}`,
      headers: { cookie },
    });
    expect(response.statusCode).toBe(204);
    const after = await previewed(cookie, file);
    // The deleted client's line is free; the other client's stays recorded.
    expect(after.lines.map((line) => line.alreadyRecorded)).toEqual([false, true]);
    const third = await add(cookie, { firstName: 'Zoe', lastName: 'Again', balance: 15_000 });
    const recorded = await confirm(cookie, confirmAll(after.lines.slice(0, 1), third.id));
    expect(recorded.recorded).toHaveLength(1);
    expect((await read(cookie, third.id)).balance).toBe(0);
  });

  it('keeps a split line recorded while another client keeps its part', async () => {
    const { cookie, client } = await owner();
    const other = await add(cookie, { firstName: 'Acme', lastName: 'Supplies', balance: 100_000 });
    const file = csvOf('2026-03-02,TWO INVOICES,150.00');
    const { lines } = await previewed(cookie, file);
    const body = confirmAll(lines, client.id);
    (body.lines[0] as { allocations: unknown }).allocations = [
      { clientId: client.id, amount: 10_000 },
      { clientId: other.id, amount: 5_000 },
    ];
    await confirm(cookie, body);
    await injectOk(testApp.app, 'DELETE', `/api/clients/${client.id}`, cookie);
    expect((await previewed(cookie, file)).lines[0]?.alreadyRecorded).toBe(true);
  });

  it('is offered again once its payment is voided by hand', async () => {
    const { cookie, client } = await owner();
    const file = csvOf('2026-03-02,IBG ZOE MULLER,150.00');
    const { lines } = await previewed(cookie, file);
    await confirm(cookie, confirmAll(lines, client.id));
    const [payment] = await payments(cookie, client.id);
    await injectOk(
      testApp.app,
      'POST',
      `/api/clients/${client.id}/entries/${payment?.id}/void`,
      cookie,
      { reason: 'Wrong client' },
    );
    const after = await previewed(cookie, file);
    expect(after.lines[0]?.alreadyRecorded).toBe(false);
    await confirm(cookie, confirmAll(after.lines, client.id));
    expect(await payments(cookie, client.id)).toHaveLength(1);
    expect((await previewed(cookie, file)).lines[0]?.alreadyRecorded).toBe(true);
  });
});

describe('the lines left recorded before', () => {
  const databaseAt = oldDatabases();

  it('are freed by migration 0035 when no payment of theirs stands', async () => {
    // Migration 0035 is frozen on the tables of its time, the owner's rows (`owner_id`): run on
    // a database the real migrations made up to the one before it, with rows as that code wrote
    // them, and migrated on by the real migration.
    const { db, migrateTo } = await databaseAt('0034-client-link-makers');
    const kysely = db.kysely as unknown as Kysely<OldTables>;
    await kysely
      .insertInto('clients')
      .values({
        id: 'client',
        owner_id: 'owner',
        first_name: 'Zoe',
        last_name: 'Muller',
        name_key: 'zoe muller',
        email: 'zoe@example.com',
        phone: '0123456789',
        balance: 0,
        currency: 'USD',
        version: 1,
        created_at: 0,
        updated_at: 0,
      })
      .execute();
    await kysely
      .insertInto('bank_batches')
      .values({
        id: 'batch',
        owner_id: 'owner',
        account_label: 'Main account',
        currency: 'USD',
        created_at: 0,
        undone_at: null,
      })
      .execute();
    // Two lines confirmed as payments that stand; one whose payment was voided by hand; and, as a
    // deleted client's line was left before, one recorded with no payment of it anywhere.
    const lineIds = ['paid-first', 'paid-second', 'voided', 'left-behind-by-a-deleted-client'];
    await kysely
      .insertInto('bank_lines')
      .values(
        lineIds.map((line_id) => ({
          owner_id: 'owner',
          line_id,
          batch_id: 'batch',
          created_at: 0,
        })),
      )
      .execute();
    const entry = (kind: 'payment' | 'void', amount: number, bankLine: string | null) => ({
      owner_id: 'owner',
      client_id: 'client',
      kind,
      amount,
      currency: 'USD',
      occurred_on: '2026-03-02',
      due_on: null,
      note: '',
      void_of: null,
      created_by: 'owner',
      created_at: 0,
      bank_line_id: bankLine,
    });
    await kysely
      .insertInto('entries')
      .values([entry('payment', -15_000, 'paid-first'), entry('payment', -8_000, 'paid-second')])
      .execute();
    const { id: voidedId } = await kysely
      .insertInto('entries')
      .values(entry('payment', -5_000, 'voided'))
      .returning('id')
      .executeTakeFirstOrThrow();
    await kysely
      .insertInto('entries')
      .values({ ...entry('void', 5_000, null), void_of: voidedId })
      .execute();
    const kept = async () =>
      (
        await kysely
          .selectFrom('bank_lines')
          .select('line_id')
          .where('batch_id', '=', 'batch')
          .execute()
      )
        .map((row) => row.line_id)
        .sort();
    expect(await kept()).toEqual([...lineIds].sort());

    await migrateTo('0035-bank-lines-freed');

    expect(await kept()).toEqual(['paid-first', 'paid-second']);
  });
});

describe('clear errors', () => {
  it('names the line where a quote opens and never closes', async () => {
    const { cookie } = await owner();
    const answer = await previewOf(
      cookie,
      csvOf(
        '2026-03-02,IBG ZOE MULLER,150.00',
        '',
        '2026-03-03,"TRANSFER ACME,80.00',
        '2026-03-04,X,1.00',
      ),
    );
    expect(answer.statusCode).toBe(400);
    expect(answer.json()).toMatchObject({
      error: {
        message: 'Line 4: a quote opens here and is never closed.',
        fields: { file: 'Line 4: a quote opens here and is never closed.' },
      },
    });
  });

  it("counts lines as an editor does: blank lines and a cell's line breaks included", async () => {
    const { cookie } = await owner();
    const file = [
      'Date,Description,Amount',
      '',
      '2026-03-02,"TWO',
      'LINES",1.00',
      '',
      '',
      '2026-03-03,X,1.00',
      '2026-03-40,Y,2.00',
    ].join('\r\n');
    const answer = await previewOf(cookie, file);
    expect(answer.json()).toMatchObject({
      error: { message: 'Line 8, column 1: this is not a date in the order chosen.' },
    });
    const good = await previewed(cookie, file.replace('2026-03-40', '2026-03-04'));
    expect(good.lines.map((line) => line.line)).toEqual([3, 7, 8]);
  });

  it('names the field of the one bad line of a confirm', async () => {
    const { cookie, client } = await owner();
    const rows = Array.from({ length: 20 }, (_, index) => `2026-03-02,PAYER ${index},1.00`);
    const { lines } = await previewed(cookie, csvOf(...rows));
    for (const [field, value] of [
      ['date', '2026-02-30'],
      ['date', '17/03/2026'],
      ['date', undefined],
      ['amount', -100],
      ['amount', '1.00'],
      ['description', 'x'.repeat(1001)],
      ['occurrence', 0],
    ] as const) {
      const body = confirmAll(lines, client.id);
      (body.lines[17] as Record<string, unknown>)[field] = value;
      const answer = await testApp.app.inject({
        method: 'POST',
        url: '/api/bank/confirm',
        headers: { cookie },
        payload: body,
      });
      expect(answer.statusCode).toBe(400);
      const { error } = answer.json<{ error: { message: string; fields: object } }>();
      expect(Object.keys(error.fields), `${field}: ${String(value)}`).toEqual([
        `lines.17.${field}`,
      ]);
      expect(error.message).toContain(`lines.17.${field}`);
    }
    expect(await payments(cookie, client.id)).toEqual([]);
  });

  it('says a deeply nested OFX file is nested too deeply, closed or not', async () => {
    const { cookie } = await owner();
    const head = '<?xml version="1.0" encoding="UTF-8"?>\n<OFX>';
    for (const file of [
      `${head}${'<A>'.repeat(10_000)}${'</A>'.repeat(10_000)}</OFX>`,
      `${head}${'<A>'.repeat(10_000)}</OFX>`,
    ]) {
      const answer = await previewOf(cookie, file, 'ofx');
      expect(answer.statusCode).toBe(400);
      expect(answer.json<{ error: { message: string } }>().error.message).toBe(
        'The file is nested too deeply (more than 64 levels).',
      );
    }
  });
});
