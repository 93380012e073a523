import { describe, expect, it } from 'vitest';
import { bankLayoutKey } from '../../../shared/bank-layout.ts';
import { readBankDate } from '../../../shared/dates.ts';
import {
  decodeForDisplay,
  findLayout,
  firstRows,
  guessBankColumns,
  guessDateOrder,
  guessDecimal,
  guessEncoding,
  statementFormat,
  toBankMapping,
  toBase64,
  workbookRows,
} from './statement-file.ts';
import { xlsxFile } from '../../../../tests/xlsx.ts';

const bytes = (text: string) => new TextEncoder().encode(text);

describe('a statement file', () => {
  it('is told by its name or its first bytes: OFX, camt.053 or CSV', () => {
    expect(statementFormat('march.ofx', bytes('x'))).toBe('ofx');
    expect(statementFormat('MARCH.QFX', bytes('x'))).toBe('ofx');
    expect(statementFormat('export.txt', bytes('OFXHEADER:100\nDATA:OFXSGML'))).toBe('ofx');
    const camt =
      '<?xml version="1.0"?><Document xmlns="urn:iso:std:iso:20022:tech:xsd:camt.053.001.02">';
    expect(statementFormat('statement.xml', bytes(camt))).toBe('camt053');
    expect(statementFormat('other.xml', bytes('<?xml version="1.0"?><Invoice/>'))).toBe('csv');
    expect(statementFormat('march.csv', bytes('Date,Amount\n'))).toBe('csv');
  });

  it('reads a Korean bank in EUC-KR (CP949) when its bytes are not UTF-8', () => {
    // "거래일자,적요" in EUC-KR.
    const euc = new Uint8Array([
      0xb0, 0xc5, 0xb7, 0xa1, 0xc0, 0xcf, 0xc0, 0xda, 0x2c, 0xc0, 0xfb, 0xbf, 0xe4,
    ]);
    expect(guessEncoding(euc)).toBe('euc-kr');
    expect(decodeForDisplay(euc, 'euc-kr')).toEqual({ text: '거래일자,적요', clean: true });
    expect(decodeForDisplay(euc, 'utf-8').clean).toBe(false);
    expect(guessEncoding(bytes('거래일자,적요'))).toBe('utf-8');
  });

  it('guesses the columns of English, Korean and Malay headers', () => {
    expect(
      guessBankColumns(['Transaction Date', 'Particulars', 'Withdrawals', 'Deposits', 'Balance']),
    ).toEqual({
      date: 0,
      description: 1,
      amount: null,
      credit: 3,
      debit: 2,
      reference: null,
      balance: 4,
      counterparty: null,
    });
    expect(guessBankColumns(['거래일시', '적요', '출금액', '입금액', '거래후잔액'])).toMatchObject({
      date: 0,
      description: 1,
      debit: 2,
      credit: 3,
      balance: 4,
    });
    expect(guessBankColumns(['Tarikh', 'Keterangan', 'Amaun', 'Rujukan'])).toMatchObject({
      date: 0,
      description: 1,
      amount: 2,
      reference: 3,
    });
  });

  // Issue 57: a Korean export's 적요 is "타행입금" on every line; 내용 says who paid.
  it('prefers 내용 over 적요, knows "Transaction Description", and keeps the payer beside', () => {
    expect(
      guessBankColumns(['거래일시', '적요', '내용', '보낸분', '입금액', '출금액', '잔액']),
    ).toMatchObject({ date: 0, description: 2, counterparty: 3, credit: 4, debit: 5 });
    expect(guessBankColumns(['거래일시', '적요', '보낸분/받는분', '입금액'])).toMatchObject({
      description: 1,
      counterparty: 2,
    });
    // With no description column, the payer's is the description.
    expect(guessBankColumns(['거래일자', '입금자명', '입금금액'])).toMatchObject({
      description: 1,
      counterparty: null,
      credit: 2,
    });
    expect(
      guessBankColumns(['Posting Date', 'Transaction Description', 'Reference', 'Amount']),
    ).toMatchObject({ date: 0, description: 1, reference: 2, amount: 3 });
  });

  it('tells an Excel workbook by its name or its zip signature, and UTF-16 by its mark', () => {
    expect(statementFormat('거래내역.xlsx', bytes('x'))).toBe('xlsx');
    expect(statementFormat('statement', new Uint8Array([0x50, 0x4b, 3, 4, 0]))).toBe('xlsx');
    // Excel's "Unicode text": UTF-16LE after its byte order mark.
    const utf16 = new Uint8Array([
      0xff,
      0xfe,
      ...[...'날짜\t금액'].flatMap((char) => [char.charCodeAt(0) & 0xff, char.charCodeAt(0) >> 8]),
    ]);
    expect(guessEncoding(utf16)).toBe('utf-8');
    expect(decodeForDisplay(utf16, 'utf-8')).toEqual({ text: '날짜\t금액', clean: true });
  });

  it('reads a workbook’s first rows as the server does, blank rows left out, or says why not', async () => {
    const file = xlsxFile([
      ['[거래내역]'],
      [],
      ['거래일시', '내용', '입금액'],
      [{ date: '2026-04-02' }, 'MINJOON KIM', 1234.56],
    ]);
    expect(await workbookRows(new Uint8Array(file), 40)).toEqual({
      rows: [
        ['[거래내역]', '', ''],
        ['거래일시', '내용', '입금액'],
        ['2026-04-02', 'MINJOON KIM', '1234.56'],
      ],
    });
    const xls = new Uint8Array([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1, 0, 0]);
    expect(await workbookRows(xls, 40)).toEqual({ problem: 'old-xls' });
    expect(await workbookRows(bytes('Date,Amount\n'), 40)).toEqual({ problem: 'not-xlsx' });
  });

  it('makes the mapping the server takes, or none while a column it needs is missing', () => {
    const habits = { skipRows: 1, dateOrder: 'DMY', decimal: '.', encoding: 'utf-8' } as const;
    const columns = {
      date: 0,
      description: 1,
      amount: null,
      credit: 3,
      debit: 2,
      reference: null,
      balance: null,
      counterparty: null,
    };
    expect(toBankMapping(columns, habits)).toEqual({
      date: 0,
      description: 1,
      credit: 3,
      debit: 2,
      ...habits,
    });
    expect(toBankMapping({ ...columns, credit: null }, habits)).toBeNull();
    expect(toBankMapping({ ...columns, amount: 4 }, habits)).toEqual({
      date: 0,
      description: 1,
      amount: 4,
      ...habits,
    });
  });

  it('finds a remembered layout by its header, below a bank’s title lines too', () => {
    const rows = firstRows(
      'Statement of account 0123\nPeriod: March\nDate,Details,Amount\n01/03/2026,X,1.00\n',
    );
    const layout = { key: bankLayoutKey(['date', 'details', 'amount']), note: 'mine' };
    expect(findLayout(rows, [{ key: '0000000000000000' }, layout])).toEqual({
      layout,
      headerIndex: 2,
    });
    expect(findLayout(rows, [{ key: '0000000000000000' }])).toBeNull();
  });

  it('reads dates in the order chosen, and guesses the order from the cells', () => {
    expect(readBankDate('03/04/2026', 'DMY')).toBe('2026-04-03');
    expect(readBankDate('03/04/2026', 'MDY')).toBe('2026-03-04');
    expect(readBankDate('03/04/2026', 'YMD')).toBeNull();
    expect(readBankDate('20260403', 'YMD')).toBe('2026-04-03');
    expect(readBankDate('2026.04.03 14:22', 'YMD')).toBe('2026-04-03');
    expect(guessDateOrder(['03/04/2026', '25/04/2026'])).toBe('DMY');
    expect(guessDateOrder(['04/25/2026'])).toBe('MDY');
    expect(guessDateOrder(['2026-04-25'])).toBe('YMD');
  });

  it('guesses a decimal comma only from amounts written with one', () => {
    expect(guessDecimal(['1.234,56', '12,00'])).toBe(',');
    expect(guessDecimal(['1,234.56', '12.00'])).toBe('.');
    expect(guessDecimal(['1,000', '250,000'])).toBe('.');
  });

  it('sends the bytes as base64', () => {
    const all = new Uint8Array(70_000).map((_, index) => index % 256);
    expect(toBase64(all)).toBe(Buffer.from(all).toString('base64'));
  });
});
