import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import iconv from 'iconv-lite';
import { describe, expect, it } from 'vitest';
import { AppError } from '../../errors.ts';
import { parseCamt053 } from './bank-camt.ts';
import { ofxAmount, ofxDate, parseOfx, sgmlToXml } from './bank-ofx.ts';
import { bankLineId } from './bank-statement.ts';

const fixture = (name: string) => readFileSync(join(import.meta.dirname, 'fixtures', name));
const utf8 = (text: string) => new TextEncoder().encode(text);

function refusal(run: () => unknown): AppError {
  try {
    run();
  } catch (error) {
    if (error instanceof AppError) return error;
    throw error;
  }
  throw new Error('not refused');
}
const refused = (run: () => unknown) => {
  const error = refusal(run);
  expect(error.status).toBe(400);
  return error.message;
};

const ofx2 = (transactions: string, { account = '111', curdef = 'USD' } = {}) =>
  utf8(`<?xml version="1.0" encoding="UTF-8"?>
<?OFX OFXHEADER="200" VERSION="220" SECURITY="NONE" OLDFILEUID="NONE" NEWFILEUID="NONE"?>
<OFX><BANKMSGSRSV1><STMTTRNRS><TRNUID>0</TRNUID><STMTRS><CURDEF>${curdef}</CURDEF>
<BANKACCTFROM><BANKID>9</BANKID><ACCTID>${account}</ACCTID><ACCTTYPE>CHECKING</ACCTTYPE></BANKACCTFROM>
<BANKTRANLIST>${transactions}</BANKTRANLIST></STMTRS></STMTTRNRS></BANKMSGSRSV1></OFX>`);
const credit = (fitid: string, amount = '10.00', date = '20260301') =>
  `<STMTTRN><TRNTYPE>CREDIT</TRNTYPE><DTPOSTED>${date}</DTPOSTED><TRNAMT>${amount}</TRNAMT><FITID>${fitid}</FITID><NAME>PAYER</NAME></STMTTRN>`;

const camt = (entries: string, { ccy = 'CAD', version = '02' } = {}) =>
  utf8(`<?xml version="1.0" encoding="UTF-8"?>
<Document xmlns="urn:iso:std:iso:20022:tech:xsd:camt.053.001.${version}"><BkToCstmrStmt>
<GrpHdr><MsgId>1</MsgId><CreDtTm>2026-04-01T00:00:00</CreDtTm></GrpHdr>
<Stmt><Id>1</Id><Acct><Id><IBAN>DE89370400440532013000</IBAN></Id><Ccy>${ccy}</Ccy></Acct>${entries}</Stmt>
</BkToCstmrStmt></Document>`);
const entry = (amount: string, { ccy = 'CAD', ref = 'R1', details = '' } = {}) =>
  `<Ntry><Amt Ccy="${ccy}">${amount}</Amt><CdtDbtInd>CRDT</CdtDbtInd><Sts>BOOK</Sts><BookgDt><Dt>2026-03-02</Dt></BookgDt>${ref && `<AcctSvcrRef>${ref}</AcctSvcrRef>`}${details}</Ntry>`;

describe('OFX', () => {
  it('reads OFX 1.02 SGML from a US bank: unclosed elements, CP1252, raw ampersands', () => {
    const { lines, skipped } = parseOfx(fixture('lakeside-checking-ofx102.ofx'), 'USD');
    expect(skipped).toBe(2);
    expect(lines).toEqual([
      {
        line: 1,
        date: '2026-03-02',
        amount: 15_000,
        description: 'ZOE MULLER INV-31',
        reference: '',
        balance: null,
        bankId: 'ofx:071000013/000123456789:202603020001',
      },
      {
        line: 3,
        date: '2026-03-04',
        amount: 8_000,
        description: 'ACME SUPPLIES PAYMENT FOR MARCH',
        reference: 'ACH0304-77',
        balance: null,
        bankId: 'ofx:071000013/000123456789:202603040007',
      },
      {
        line: 4,
        date: '2026-03-10',
        amount: 4_550,
        description: 'CAFÉ AT&T REFUND',
        reference: '1042',
        balance: null,
        bankId: 'ofx:071000013/000123456789:202603100002',
      },
      ...[5, 6].map((line) => ({
        line,
        date: '2026-03-12',
        amount: 2_500,
        description: 'HANBIT TRADING CO',
        reference: '',
        balance: null,
        bankId: `ofx:071000013/000123456789:20260312000${line - 4}`,
      })),
    ]);
  });

  it('reads OFX 2.2 XML with its entities and character references', () => {
    const { lines, skipped } = parseOfx(fixture('coastal-savings-ofx220.ofx'), 'USD');
    expect(skipped).toBe(1);
    expect(
      lines.map(({ line, date, amount, description }) => [line, date, amount, description]),
    ).toEqual([
      [1, '2026-03-05', 123_456, "Renée O'Brien Invoice INV-2026-007 & deposit"],
      // A memo that says the name again is not written twice.
      [3, '2026-03-31', 87, 'INTEREST PAID'],
    ]);
  });

  it('reads a QFX card statement', () => {
    const { lines } = parseOfx(fixture('northwind-card.qfx'), 'USD');
    expect(lines.map((line) => [line.amount, line.description, line.bankId])).toEqual([
      [6_000, 'REFUND NORTHWIND ORDER 5521', 'ofx:4111222233334444:2026030724692160001234567'],
      [50_000, 'PAYMENT THANK YOU', 'ofx:4111222233334444:2026032024692160001234569'],
    ]);
  });

  it('tells apart two accounts with the same FITID, and one account across statements', () => {
    const [mine] = parseOfx(ofx2(credit('1')), 'USD').lines;
    const [theirs] = parseOfx(ofx2(credit('1'), { account: '222' }), 'USD').lines;
    const [again] = parseOfx(ofx2(credit('1', '10.00', '20260301120000')), 'USD').lines;
    const id = (line: typeof mine) => bankLineId('Main', 'USD', line as NonNullable<typeof mine>);
    expect(id(mine)).not.toBe(id(theirs));
    expect(id(mine)).toBe(id(again));
    // The id is the bank's: the same FITID with another description is the same line.
    expect(bankLineId('Main', 'USD', { ...mine!, description: 'other' })).toBe(id(mine));
    expect(bankLineId('Main', 'USD', { ...mine!, bankId: undefined })).not.toBe(id(mine));
  });

  it('keeps a FITID longer than a line holds as a hash of it', () => {
    const [long] = parseOfx(ofx2(credit('9'.repeat(255))), 'USD').lines;
    expect(long?.bankId).toMatch(/^ofx#[\w-]{43}$/);
  });

  it('reads dates with a time and a zone, and amounts with a decimal comma', () => {
    expect(ofxDate('20260302')).toBe('2026-03-02');
    expect(ofxDate('20260302235959.123[-5:EST]')).toBe('2026-03-02');
    expect(ofxDate('20260230')).toBeNull();
    expect(ofxDate('2026-03-02')).toBeNull();
    expect(ofxAmount('1234,5', 'USD')).toBe(123_450);
    expect(ofxAmount('-.5', 'USD')).toBe(-50);
    expect(ofxAmount('150000', 'KRW')).toBe(150_000);
    expect(ofxAmount('1,234.50', 'USD')).toBeNull();
    expect(ofxAmount('', 'USD')).toBeNull();
  });

  it('names what is wrong with a transaction', () => {
    expect(refused(() => parseOfx(ofx2(credit('1', 'ten')), 'USD'))).toBe(
      'Transaction 1: this is not an amount.',
    );
    expect(
      refused(() => parseOfx(ofx2(credit('1') + credit('2', '1.00', '2026-03-01')), 'USD')),
    ).toBe('Transaction 2: this is not a date.');
  });

  it("refuses a statement in another currency than the account's, naming both", () => {
    expect(refused(() => parseOfx(ofx2(credit('1'), { curdef: 'CAD' }), 'USD'))).toBe(
      'The statement is in CAD, not in USD.',
    );
  });

  it('closes aggregates SGML left open and drops closing tags written after a value', () => {
    expect(sgmlToXml('<OFX><A><B>1</B><C>2<D><E>3</A></OFX>')).toBe(
      '<OFX><A><B>1</B><C>2</C><D><E>3</E></D></A></OFX>',
    );
  });
});

describe('camt.053', () => {
  it('reads .001.02: booked credits, a batch split by its transactions, NOTPROVIDED left out', () => {
    const { lines, skipped } = parseCamt053(fixture('maple-bank-camt053-001-02.xml'), 'CAD');
    expect(skipped).toBe(2);
    expect(lines).toEqual([
      {
        line: 1,
        date: '2026-03-02',
        amount: 15_000,
        description: 'Zoé Müller Rechnung INV-31 & Versand',
        reference: 'INV-31',
        balance: null,
        bankId: 'camt:00012-003-1234567:2026030200001',
      },
      {
        line: 4,
        date: '2026-03-05',
        amount: 10_000,
        description: 'Acme Supplies Ltd',
        reference: 'RF18539007547034',
        balance: null,
        bankId: 'camt:00012-003-1234567:2026030500002/1',
      },
      {
        line: 5,
        date: '2026-03-05',
        amount: 20_000,
        description: 'Björn Schäfer March lessons',
        reference: 'E2E-7781',
        balance: null,
        bankId: 'camt:00012-003-1234567:2026030500002/2',
      },
      // No AcctSvcrRef: identified by its fields, like a CSV line.
      {
        line: 6,
        date: '2026-03-20',
        amount: 8_000,
        description: 'Hanbit Trading Co INTERAC E-TRANSFER MARCH',
        reference: '',
        balance: null,
      },
    ]);
  });

  it('reads .001.08: the status as a code, the debtor as a party, KRW without decimals', () => {
    const { lines, skipped } = parseCamt053(fixture('hanbit-bank-camt053-001-08.xml'), 'KRW');
    expect(skipped).toBe(2);
    expect(
      lines.map(({ date, amount, description, reference, bankId }) => [
        date,
        amount,
        description,
        reference,
        bankId,
      ]),
    ).toEqual([
      ['2026-03-04', 350_000, '김민준 3월 수강료', '', 'camt:110-234-567890:HNB2026030400117'],
      ['2026-03-10', 1_200_000, '박서연', 'INV-2026-007', 'camt:110-234-567890:HNB2026031000045'],
    ]);
  });

  it('reads a document whose elements carry a namespace prefix', () => {
    const prefixed = Buffer.from(
      Buffer.from(camt(entry('12.34')))
        .toString()
        .replace(/<(\/?)(\w+)/g, '<$1c:$2')
        .replace('<c:Document xmlns=', '<c:Document xmlns:c='),
    );
    expect(parseCamt053(prefixed, 'CAD').lines).toEqual([
      {
        line: 1,
        date: '2026-03-02',
        amount: 1_234,
        description: '',
        reference: '',
        balance: null,
        bankId: 'camt:DE89370400440532013000:R1',
      },
    ]);
  });

  it('keeps an entry whole when its transactions do not add up to it', () => {
    const tx = (amount: string) =>
      `<TxDtls><AmtDtls><TxAmt><Amt Ccy="CAD">${amount}</Amt></TxAmt></AmtDtls><RltdPties><Dbtr><Nm>P${amount}</Nm></Dbtr></RltdPties></TxDtls>`;
    const { lines } = parseCamt053(
      camt(entry('30.00', { details: `<NtryDtls>${tx('10.00')}${tx('10.00')}</NtryDtls>` })),
      'CAD',
    );
    expect(lines.map((line) => [line.amount, line.description])).toEqual([[3_000, 'P10.00']]);
  });

  it('refuses an account or an entry in another currency, naming both', () => {
    expect(refused(() => parseCamt053(camt(entry('1.00'), { ccy: 'EUR' }), 'CAD'))).toBe(
      'The statement is in EUR, not in CAD.',
    );
    expect(refused(() => parseCamt053(camt(entry('1.00', { ccy: 'EUR' })), 'CAD'))).toBe(
      'Transaction 1: the amount is in EUR, not in CAD.',
    );
    expect(refused(() => parseCamt053(camt(entry('1.001')), 'CAD'))).toBe(
      'Transaction 1: this is not an amount.',
    );
  });
});

describe('hostile files', () => {
  const billionLaughs = `<?xml version="1.0"?>
<!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">
<!ENTITY lol3 "&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;">]>`;

  it('refuses a DOCTYPE and its entities, in either format', () => {
    const message = 'The file declares a DOCTYPE or entities, which are not read.';
    expect(
      refused(() => parseCamt053(utf8(`${billionLaughs}<Document>&lol3;</Document>`), 'CAD')),
    ).toBe(message);
    expect(refused(() => parseOfx(utf8(`${billionLaughs}<OFX>&lol3;</OFX>`), 'USD'))).toBe(message);
    // SGML too: the entity is declared after the header.
    expect(
      refused(() => parseOfx(utf8(`OFXHEADER:100\n<!ENTITY x "y"><OFX><A>&x;</OFX>`), 'USD')),
    ).toMatch(/DOCTYPE|not an OFX file/);
  });

  it('refuses 100,000 levels of nesting without a stack overflow', () => {
    const deep = (open: string, close: string) => open.repeat(100_000) + close.repeat(100_000);
    const message = 'The file is nested too deeply (more than 64 levels).';
    expect(
      refused(() => parseCamt053(utf8(`<Document>${deep('<a>', '</a>')}</Document>`), 'CAD')),
    ).toBe(message);
    expect(
      refused(() =>
        parseOfx(utf8(`<?xml version="1.0"?><OFX>${deep('<A>', '</A>')}</OFX>`), 'USD'),
      ),
    ).toBe(message);
    expect(
      refused(() => parseOfx(utf8(`OFXHEADER:100\n<OFX>${'<A>'.repeat(100_000)}x</OFX>`), 'USD')),
    ).toBe(message);
  });

  it('refuses a file of another format, binary garbage and UTF-16', () => {
    const csv = utf8('Date,Description,Amount\n2026-03-02,X,1.00\n');
    expect(refused(() => parseOfx(csv, 'USD'))).toBe('This is not an OFX file.');
    expect(refused(() => parseCamt053(csv, 'USD'))).toBe('This is not a camt.053 statement.');
    expect(refused(() => parseCamt053(fixture('coastal-savings-ofx220.ofx'), 'USD'))).toBe(
      'This is not a camt.053 statement.',
    );
    const garbage = new Uint8Array(4096).map((_, index) => (index * 7919 + 13) % 256);
    expect(refused(() => parseOfx(garbage, 'USD'))).toBe('This is not an OFX file.');
    expect(refused(() => parseCamt053(garbage, 'USD'))).toBe('This is not a camt.053 statement.');
    const utf16 = Buffer.from(
      `\uFEFF${fixture('coastal-savings-ofx220.ofx').toString()}`,
      'utf16le',
    );
    expect(refused(() => parseOfx(utf16, 'USD'))).toBe('The file is in UTF-16; save it as UTF-8.');
    expect(refused(() => parseOfx(utf16.subarray(2), 'USD'))).toBe(
      'The file is in UTF-16; save it as UTF-8.',
    );
    expect(refused(() => parseOfx(utf8('OFXHEADER:100\n<OFX><A>1<</OFX>'), 'USD'))).toBe(
      'This is not an OFX file.',
    );
    expect(refused(() => parseCamt053(utf8('<Document><a></b></Document>'), 'USD'))).toBe(
      'The file is not well-formed XML (line 1, column 14).',
    );
  });

  it('refuses a file not in the encoding it declares', () => {
    const korean = iconv.encode(
      fixture('hanbit-bank-camt053-001-08.xml').toString().replace('김민준', '김민준'),
      'cp949',
    );
    expect(refused(() => parseCamt053(korean, 'KRW'))).toBe(
      'The file is not in the encoding it declares (UTF-8).',
    );
    const declared = Buffer.from(
      fixture('coastal-savings-ofx220.ofx')
        .toString()
        .replace('encoding="UTF-8"', 'encoding="Shift_JIS"'),
    );
    expect(refused(() => parseOfx(declared, 'USD'))).toBe(
      'The file is in Shift_JIS, which is not read; save it as UTF-8.',
    );
  });

  it('refuses more than 20,000 transactions and more than 600,000 tags', () => {
    expect(refused(() => parseOfx(ofx2(credit('1').repeat(20_001)), 'USD'))).toBe(
      'A statement may have at most 20000 lines.',
    );
    expect(refused(() => parseCamt053(camt(entry('1.00').repeat(20_001)), 'CAD'))).toBe(
      'A statement may have at most 20000 lines.',
    );
    expect(
      refused(() => parseCamt053(utf8(`<Document>${'<a/>'.repeat(600_001)}</Document>`), 'CAD')),
    ).toBe('The file has more than 600000 tags.');
  });
});
