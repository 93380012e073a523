import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../../../tests/app.ts';
import { joinAs } from '../../../../tests/auth.ts';
import { buildClient } from '../../../../tests/factories.ts';
import { injectOk } from '../../../../tests/http.ts';
import type { Currency } from '../../../shared/money.ts';
import {
  bankFileMaxBytes,
  type BankConfirmed,
  type BankPreview,
  type PreviewLine,
} from '../../../shared/schemas/bank.ts';
import type { Client, ClientInput } from '../../../shared/schemas/clients.ts';
import type { Entry } from '../../../shared/schemas/ledger.ts';

// OFX, QFX and camt.053 statements through the routes, on both databases; the readers' own
// cases are in bank-formats.test.ts.

let testApp: TestApp;
beforeAll(async () => {
  testApp = await buildTestApp();
});
afterAll(async () => {
  await testApp.close();
});

const fixture = (name: string) => readFileSync(join(import.meta.dirname, 'fixtures', name));

const add = async (cookie: string, values: Partial<ClientInput>) =>
  (await injectOk(testApp.app, 'POST', '/api/clients', cookie, buildClient(values))).json<Client>();
const balanceOf = async (cookie: string, id: string) =>
  (await injectOk(testApp.app, 'GET', `/api/clients/${id}`, cookie)).json<Client>().balance;

interface Statement {
  format: 'csv' | 'ofx' | 'camt053';
  file: Uint8Array;
  currency: Currency;
  accountLabel?: string;
  language?: string;
}

const preview = (cookie: string, { format, file, currency, accountLabel, language }: Statement) =>
  testApp.app.inject({
    method: 'POST',
    url: '/api/bank/preview',
    headers: { cookie, ...(language && { 'accept-language': language }) },
    payload: {
      accountLabel: accountLabel ?? 'Main account',
      currency,
      format,
      file: Buffer.from(file).toString('base64'),
    },
  });

const previewed = async (cookie: string, statement: Statement) => {
  const answer = await preview(cookie, statement);
  expect(answer.statusCode, answer.body).toBe(200);
  return answer.json<BankPreview>();
};

/** The lines as previewed, all to one client, exactly as a screen sends them back. */
const confirm = (cookie: string, currency: Currency, lines: PreviewLine[], clientId: string) =>
  testApp.app.inject({
    method: 'POST',
    url: '/api/bank/confirm',
    headers: { cookie },
    payload: {
      accountLabel: 'Main account',
      currency,
      lines: lines.map(({ id: _id, alreadyRecorded: _recorded, suggestions: _s, ...line }) => ({
        ...line,
        allocations: [{ clientId, amount: line.amount }],
      })),
    },
  });

async function recordsOnce(cookie: string, statement: Statement, clientId: string) {
  const first = await previewed(cookie, statement);
  expect(first.lines.every((line) => !line.alreadyRecorded)).toBe(true);
  const recorded = await confirm(cookie, statement.currency, first.lines, clientId);
  expect(recorded.statusCode, recorded.body).toBe(200);
  // The identity confirm works out is the one the preview showed.
  expect(recorded.json<BankConfirmed>().recorded.map((line) => line.lineId)).toEqual(
    first.lines.map((line) => line.id),
  );
  const again = await previewed(cookie, statement);
  expect(again.lines.map((line) => [line.id, line.alreadyRecorded])).toEqual(
    first.lines.map((line) => [line.id, true]),
  );
  const twice = (
    await confirm(cookie, statement.currency, again.lines, clientId)
  ).json<BankConfirmed>();
  expect(twice).toEqual({
    batchId: null,
    recorded: [],
    alreadyRecorded: first.lines.map((line) => line.id),
  });
  return first;
}

const row = ({ line, date, amount, description, reference }: PreviewLine) => [
  line,
  date,
  amount,
  description,
  reference,
];

describe('bank statements in OFX and camt.053', () => {
  it('reads a US bank OFX 1.02 file, matches it, and records it once', async () => {
    const { cookie } = await joinAs(testApp.app);
    const zoe = await add(cookie, { firstName: 'Zoé', lastName: 'Müller', balance: 15_000 });
    const other = await add(cookie, { firstName: 'Walk', lastName: 'In', balance: 0 });
    const statement: Statement = {
      format: 'ofx',
      file: fixture('lakeside-checking-ofx102.ofx'),
      currency: 'USD',
    };
    const { lines, skipped } = await previewed(cookie, statement);
    expect(skipped).toBe(2);
    expect(lines.map(row)).toEqual([
      [1, '2026-03-02', 15_000, 'ZOE MULLER INV-31', ''],
      [3, '2026-03-04', 8_000, 'ACME SUPPLIES PAYMENT FOR MARCH', 'ACH0304-77'],
      [4, '2026-03-10', 4_550, 'CAFÉ AT&T REFUND', '1042'],
      [5, '2026-03-12', 2_500, 'HANBIT TRADING CO', ''],
      [6, '2026-03-12', 2_500, 'HANBIT TRADING CO', ''],
    ]);
    expect(lines[0]?.suggestions[0]).toEqual({
      clientId: zoe.id,
      reason: 'name',
      confidence: 'high',
      pays: [expect.objectContaining({ openAmount: 15_000 })],
    });
    // Two equal payments on one day, told apart by their FITIDs.
    expect(new Set(lines.map((line) => line.id)).size).toBe(5);

    await recordsOnce(cookie, statement, other.id);
    expect(await balanceOf(cookie, other.id)).toBe(-32_550);
    const entries = (
      await injectOk(testApp.app, 'GET', `/api/clients/${other.id}/entries?limit=100`, cookie)
    ).json<{ entries: Entry[] }>().entries;
    expect(entries.find((entry) => entry.amount === -8_000)).toMatchObject({
      kind: 'payment',
      date: '2026-03-04',
      note: 'ACME SUPPLIES PAYMENT FOR MARCH',
      reference: 'ACH0304-77',
    });
  });

  it('reads OFX 2.2 XML and QFX, each recorded once', async () => {
    const { cookie } = await joinAs(testApp.app);
    const client = await add(cookie, { balance: 0 });
    const xml = await recordsOnce(
      cookie,
      { format: 'ofx', file: fixture('coastal-savings-ofx220.ofx'), currency: 'USD' },
      client.id,
    );
    expect(xml.lines.map(row)).toEqual([
      [1, '2026-03-05', 123_456, "Renée O'Brien Invoice INV-2026-007 & deposit", ''],
      [3, '2026-03-31', 87, 'INTEREST PAID', ''],
    ]);
    const qfx = await recordsOnce(
      cookie,
      { format: 'ofx', file: fixture('northwind-card.qfx'), currency: 'USD' },
      client.id,
    );
    expect(qfx.lines.map(row)).toEqual([
      [1, '2026-03-07', 6_000, 'REFUND NORTHWIND ORDER 5521', ''],
      [3, '2026-03-20', 50_000, 'PAYMENT THANK YOU', ''],
    ]);
  });

  it('reads camt.053.001.02 and .001.08, each recorded once', async () => {
    const { cookie } = await joinAs(testApp.app);
    const cad = await add(cookie, { currency: 'CAD', balance: 0 });
    const minjun = await add(cookie, {
      firstName: '민준',
      lastName: '김',
      currency: 'KRW',
      balance: 350_000,
    });
    const canadian = await recordsOnce(
      cookie,
      { format: 'camt053', file: fixture('maple-bank-camt053-001-02.xml'), currency: 'CAD' },
      cad.id,
    );
    expect(canadian.skipped).toBe(2);
    expect(canadian.lines.map(row)).toEqual([
      [1, '2026-03-02', 15_000, 'Zoé Müller Rechnung INV-31 & Versand', 'INV-31'],
      [4, '2026-03-05', 10_000, 'Acme Supplies Ltd', 'RF18539007547034'],
      [5, '2026-03-05', 20_000, 'Björn Schäfer March lessons', 'E2E-7781'],
      [6, '2026-03-20', 8_000, 'Hanbit Trading Co INTERAC E-TRANSFER MARCH', ''],
    ]);
    const korean = await previewed(cookie, {
      format: 'camt053',
      file: fixture('hanbit-bank-camt053-001-08.xml'),
      currency: 'KRW',
    });
    expect(korean.lines.map(row)).toEqual([
      [1, '2026-03-04', 350_000, '김민준 3월 수강료', ''],
      [3, '2026-03-10', 1_200_000, '박서연', 'INV-2026-007'],
    ]);
    expect(korean.lines[0]?.suggestions[0]).toMatchObject({ clientId: minjun.id, reason: 'name' });
    await recordsOnce(
      cookie,
      { format: 'camt053', file: fixture('hanbit-bank-camt053-001-08.xml'), currency: 'KRW' },
      minjun.id,
    );
    expect(await balanceOf(cookie, minjun.id)).toBe(350_000 - 1_550_000);
  });

  it("derives a confirmed line's identity from the bank's id on the server", async () => {
    const { cookie } = await joinAs(testApp.app);
    const client = await add(cookie, { balance: 0 });
    const statement: Statement = {
      format: 'ofx',
      file: fixture('coastal-savings-ofx220.ofx'),
      currency: 'USD',
    };
    const [line] = (await previewed(cookie, statement)).lines as [PreviewLine];
    // Sent without its bank id, the line is identified by its fields: another identity.
    const { bankId: _bankId, ...withoutBankId } = line;
    const elsewhere = await confirm(cookie, 'USD', [withoutBankId], client.id);
    expect(elsewhere.json<BankConfirmed>().recorded[0]?.lineId).not.toBe(line.id);
    // With it, the server works out the id the preview gave.
    const recorded = await confirm(cookie, 'USD', [{ ...line, id: 'forged' }], client.id);
    expect(recorded.json<BankConfirmed>().recorded[0]?.lineId).toBe(line.id);
    const tooLong = await confirm(cookie, 'USD', [{ ...line, bankId: 'x'.repeat(201) }], client.id);
    expect(tooLong.statusCode).toBe(400);
  });

  it('asks for the mapping of a CSV file only, and still reads CSV when no format is named', async () => {
    const { cookie } = await joinAs(testApp.app);
    const csv = Buffer.from('Date,Description,Amount\n2026-03-02,PAYER,1.00\n');
    const noMapping = await preview(cookie, { format: 'csv', file: csv, currency: 'USD' });
    expect(noMapping.statusCode).toBe(400);
    expect(noMapping.json()).toMatchObject({
      error: { code: 'validation', fields: { mapping: "Choose the CSV file's columns." } },
    });
    const unnamed = await testApp.app.inject({
      method: 'POST',
      url: '/api/bank/preview',
      headers: { cookie },
      payload: {
        accountLabel: 'Main account',
        currency: 'USD',
        mapping: { date: 0, description: 1, amount: 2, dateOrder: 'YMD', decimal: '.' },
        file: csv.toString('base64'),
      },
    });
    expect(unnamed.json<BankPreview>().lines).toHaveLength(1);
    const wrongFormat = await testApp.app.inject({
      method: 'POST',
      url: '/api/bank/preview',
      headers: { cookie },
      payload: { accountLabel: 'A', currency: 'USD', format: 'qif', file: '' },
    });
    expect(wrongFormat.json()).toMatchObject({
      error: { fields: { format: 'Choose csv, xlsx, ofx or camt053.' } },
    });
  });
});

describe('hostile bank statements', () => {
  const utf8 = (text: string) => Buffer.from(text);
  const refusedWith = async (statement: Statement, message: string) => {
    const { cookie } = await joinAs(testApp.app);
    const answer = await preview(cookie, statement);
    expect(answer.statusCode, answer.body).toBe(400);
    expect(answer.json()).toMatchObject({ error: { code: 'validation', message } });
    return cookie;
  };

  it('refuses billion laughs, in English, Korean and Malay', async () => {
    const laughs = utf8(`<?xml version="1.0"?>
<!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">]>
<Document><BkToCstmrStmt><Stmt>&lol2;</Stmt></BkToCstmrStmt></Document>`);
    const statement: Statement = { format: 'camt053', file: laughs, currency: 'CAD' };
    await refusedWith(statement, 'The file declares a DOCTYPE or entities, which are not read.');
    await refusedWith(
      { ...statement, language: 'ko' },
      '파일에 DOCTYPE이나 엔티티 선언이 있어 읽지 않습니다.',
    );
    await refusedWith(
      { ...statement, language: 'ms' },
      'Fail ini mengisytiharkan DOCTYPE atau entiti, yang tidak dibaca.',
    );
  });

  it('refuses a body nested more deeply than any JSON body may be, none, and one that is no JSON', async () => {
    const { cookie } = await joinAs(testApp.app);
    const send = (payload: string) =>
      testApp.app.inject({
        method: 'POST',
        url: '/api/bank/preview',
        headers: { cookie, 'content-type': 'application/json' },
        payload,
      });
    const body = (extra: string) =>
      `{"accountLabel":"Main account","currency":"USD","format":"ofx","file":""${extra}}`;
    const deep = await send(body(`,"x":${'['.repeat(17)}${']'.repeat(17)}`));
    expect(deep.statusCode, deep.body).toBe(400);
    expect(deep.json()).toMatchObject({
      error: {
        code: 'validation',
        message: 'The request body nests arrays and objects more than 16 levels deep',
      },
    });
    const none = await testApp.app.inject({
      method: 'POST',
      url: '/api/bank/preview',
      headers: { cookie },
    });
    expect(none.statusCode, none.body).toBe(400);
    expect(none.json()).toMatchObject({ error: { message: 'The request body is not valid JSON' } });
    const cut = await send(body('').slice(0, -1));
    expect(cut.statusCode, cut.body).toBe(400);
    expect(cut.json()).toMatchObject({ error: { message: 'The request body is not valid JSON' } });
    const wrongField = await send(body(',"currency":"XYZ"'));
    expect(wrongField.statusCode, wrongField.body).toBe(400);
    expect(
      wrongField.json<{ error: { fields: Record<string, string> } }>().error.fields,
    ).toHaveProperty('currency');
  });

  it('refuses 100,000 levels of nesting, and the server answers on', async () => {
    const deep = '<a>'.repeat(100_000) + '</a>'.repeat(100_000);
    const cookie = await refusedWith(
      {
        format: 'ofx',
        file: utf8(`<?xml version="1.0"?><OFX>${deep}</OFX>`),
        currency: 'USD',
      },
      'The file is nested too deeply (more than 64 levels).',
    );
    await refusedWith(
      { format: 'camt053', file: utf8(`<Document>${deep}</Document>`), currency: 'USD' },
      'The file is nested too deeply (more than 64 levels).',
    );
    const after = await previewed(cookie, {
      format: 'ofx',
      file: fixture('coastal-savings-ofx220.ofx'),
      currency: 'USD',
    });
    expect(after.lines).toHaveLength(2);
  });

  describe('refuses a 4 MB file of markup that is no statement before reading it', () => {
    // Issue 54: one tag of 380,000 attributes held the server for seconds; each shape is refused
    // by the count before the parser sees it, with a message naming what is wrong.
    const fill = 4 * 1024 * 1024 - 4096;
    const attributes = (count: number, name = 'a') =>
      Array.from({ length: count }, (_, index) => ` ${name}${index}="${index}"`).join('');
    const oneTag = attributes(380_000).slice(0, fill);
    const many = oneTag.slice(0, oneTag.lastIndexOf(' '));
    const ofx2 = (body: string) =>
      utf8(
        `<?xml version="1.0" encoding="UTF-8"?>\n<?OFX OFXHEADER="200" VERSION="220"?>\n<OFX>${body}</OFX>`,
      );
    const tooManyOnOneTag = 'The file has a tag with more than 64 attributes.';

    it('one tag of 380,000 attributes: OFX 2, OFX 1 and camt.053, in three languages', async () => {
      await refusedWith(
        { format: 'ofx', file: ofx2(`<SIGNONMSGSRSV1${many}/>`), currency: 'USD' },
        tooManyOnOneTag,
      );
      await refusedWith(
        {
          format: 'camt053',
          file: utf8(`<?xml version="1.0"?><Document${many}><BkToCstmrStmt/></Document>`),
          currency: 'CAD',
        },
        tooManyOnOneTag,
      );
      const ofx1 = utf8(
        `OFXHEADER:100\nDATA:OFXSGML\nVERSION:102\n\n<OFX><SIGNONMSGSRSV1${many}><SONRS></SONRS></SIGNONMSGSRSV1></OFX>`,
      );
      // OFX 1 has no attributes: a tag with any is not OFX.
      await refusedWith({ format: 'ofx', file: ofx1, currency: 'USD' }, 'This is not an OFX file.');
      const statement: Statement = { format: 'ofx', file: ofx2(`<A${many}/>`), currency: 'USD' };
      await refusedWith(
        { ...statement, language: 'ko' },
        '파일에 속성이 64개를 넘는 태그가 있습니다.',
      );
      await refusedWith(
        { ...statement, language: 'ms' },
        'Fail ini mempunyai tag dengan lebih daripada 64 atribut.',
      );
    });

    it("answers another owner's list while the file is read, then refuses the file", async () => {
      // Read on the thread that answers requests, the file was refused before the list that was
      // asked for after it could be answered; read in a worker, the list comes first.
      const sender = await joinAs(testApp.app);
      const other = await joinAs(testApp.app);
      const finished: string[] = [];
      const hostile = preview(sender.cookie, {
        format: 'ofx',
        file: ofx2(`<SIGNONMSGSRSV1${many}/>`),
        currency: 'USD',
      }).then((answer) => {
        finished.push('hostile statement');
        return answer;
      });
      const list = await injectOk(testApp.app, 'GET', '/api/clients', other.cookie);
      finished.push("the other owner's list");
      const refused = await hostile;
      expect(list.statusCode).toBe(200);
      expect(refused.statusCode, refused.body).toBe(400);
      expect(refused.json()).toMatchObject({
        error: { code: 'validation', message: tooManyOnOneTag },
      });
      expect(finished).toEqual(["the other owner's list", 'hostile statement']);
    });

    it('attributes spread over many tags, many namespaces, bare equals signs', async () => {
      const tag = `<X${attributes(30)}/>`;
      await refusedWith(
        { format: 'ofx', file: ofx2(tag.repeat(Math.floor(fill / tag.length))), currency: 'USD' },
        'The file has more attributes than a statement has (more than one for every two tags).',
      );
      await refusedWith(
        { format: 'ofx', file: ofx2(`<A${attributes(100_000, 'xmlns:n')}/>`), currency: 'USD' },
        tooManyOnOneTag,
      );
      await refusedWith(
        { format: 'ofx', file: ofx2(`<A ${'a='.repeat(fill / 2)}/>`), currency: 'USD' },
        tooManyOnOneTag,
      );
    });

    it('a huge attribute value, a huge text, a huge tag name', async () => {
      await refusedWith(
        { format: 'ofx', file: ofx2(`<A a="${'&amp;'.repeat(fill / 5)}"/>`), currency: 'USD' },
        'The file has an attribute value longer than 1000 characters.',
      );
      await refusedWith(
        {
          format: 'ofx',
          file: ofx2(`<A>${'&amp;&#65;&lt;'.repeat(fill / 14)}</A>`),
          currency: 'USD',
        },
        'The file has a text longer than 10000 characters.',
      );
      await refusedWith(
        {
          format: 'camt053',
          file: utf8(`<Document><![CDATA[${'x'.repeat(fill)}]]></Document>`),
          currency: 'CAD',
        },
        'The file has a text longer than 10000 characters.',
      );
      await refusedWith(
        { format: 'ofx', file: ofx2(`<${'N'.repeat(fill)}/>`), currency: 'USD' },
        'The file has a tag name longer than 64 characters.',
      );
    });
  });

  it('refuses a CSV sent as OFX, binary garbage, UTF-16 and a wrong encoding', async () => {
    const csv = utf8('Date,Description,Amount\n2026-03-02,PAYER,1.00\n');
    await refusedWith({ format: 'ofx', file: csv, currency: 'USD' }, 'This is not an OFX file.');
    await refusedWith(
      { format: 'camt053', file: csv, currency: 'USD' },
      'This is not a camt.053 statement.',
    );
    const garbage = new Uint8Array(65_536).map((_, index) => (index * 7919 + 13) % 256);
    await refusedWith(
      { format: 'ofx', file: garbage, currency: 'USD' },
      'This is not an OFX file.',
    );
    await refusedWith(
      {
        format: 'ofx',
        file: Buffer.from(fixture('coastal-savings-ofx220.ofx').toString(), 'utf16le'),
        currency: 'USD',
      },
      'The file is in UTF-16; save it as UTF-8.',
    );
    const latin1 = Buffer.from(fixture('maple-bank-camt053-001-02.xml').toString('utf8'), 'latin1');
    await refusedWith(
      { format: 'camt053', file: latin1, currency: 'CAD' },
      'The file is not in the encoding it declares (UTF-8).',
    );
  });

  it('refuses a statement in another currency, naming both', async () => {
    await refusedWith(
      { format: 'ofx', file: fixture('lakeside-checking-ofx102.ofx'), currency: 'KRW' },
      'The statement is in USD, not in KRW.',
    );
  });

  it('refuses a file over 4 MiB and one of more than 20,000 transactions', async () => {
    const { cookie } = await joinAs(testApp.app);
    // One byte over is within the base64 limit: the bytes themselves are counted.
    for (const extra of [1, 3]) {
      const large = await preview(cookie, {
        format: extra === 1 ? 'camt053' : 'ofx',
        file: new Uint8Array(bankFileMaxBytes + extra),
        currency: 'CAD',
      });
      expect(large.statusCode).toBe(400);
      expect(large.json()).toMatchObject({ error: { fields: { file: 'The file is too large.' } } });
    }
    const transaction = (index: number) =>
      `<STMTTRN><TRNTYPE>CREDIT<DTPOSTED>20260301<TRNAMT>1.00<FITID>${index}<NAME>P</STMTTRN>`;
    const many = `OFXHEADER:100\n<OFX><BANKMSGSRSV1><STMTTRNRS><STMTRS><CURDEF>USD<BANKTRANLIST>${Array.from(
      { length: 20_001 },
      (_, index) => transaction(index),
    ).join('')}</BANKTRANLIST></STMTRS></STMTTRNRS></BANKMSGSRSV1></OFX>`;
    await refusedWith(
      { format: 'ofx', file: utf8(many), currency: 'USD' },
      'A statement may have at most 20000 lines.',
    );
  });
});
