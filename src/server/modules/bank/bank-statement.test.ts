import { describe, expect, it } from 'vitest';
import { bankMappingSchema } from '../../../shared/schemas/bank.ts';
import { AppError } from '../../errors.ts';
import { readBankDate } from '../../../shared/dates.ts';
import { bankLineId, parseBankAmount, parseStatement } from './bank-statement.ts';

const mapping = (fields: Record<string, unknown>) =>
  bankMappingSchema.parse({ date: 0, description: 1, dateOrder: 'YMD', decimal: '.', ...fields });
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

describe('bank dates', () => {
  it('reads the three orders, compact and two-digit years', () => {
    expect(readBankDate('2024.01.31', 'YMD')).toBe('2024-01-31');
    expect(readBankDate('20240131', 'YMD')).toBe('2024-01-31');
    expect(readBankDate('31/01/2024', 'DMY')).toBe('2024-01-31');
    expect(readBankDate('1/31/24', 'MDY')).toBe('2024-01-31');
    expect(readBankDate('2024-01-31 14:05:00', 'YMD')).toBe('2024-01-31');
  });
  it('refuses what is no date in that order', () => {
    expect(readBankDate('31/01/2024', 'MDY')).toBeNull();
    expect(readBankDate('2024-02-30', 'YMD')).toBeNull();
    expect(readBankDate('yesterday', 'YMD')).toBeNull();
  });
});

describe('bank amounts', () => {
  it('reads grouping, decimal commas, signs and brackets', () => {
    expect(parseBankAmount('1,234.50', '.', 'USD')).toBe(123450);
    expect(parseBankAmount('1.234,50', ',', 'MYR')).toBe(123450);
    expect(parseBankAmount('RM 1 234,5', ',', 'MYR')).toBe(123450);
    expect(parseBankAmount('(12.00)', '.', 'USD')).toBe(-1200);
    expect(parseBankAmount('12.00-', '.', 'USD')).toBe(-1200);
    expect(parseBankAmount('₩1,500,000원', '.', 'KRW')).toBe(1500000);
    expect(parseBankAmount('1,500,000.00', '.', 'KRW')).toBe(1500000);
  });
  it('refuses what is no amount', () => {
    expect(parseBankAmount('1.5', '.', 'KRW')).toBeNull();
    expect(parseBankAmount('abc', '.', 'USD')).toBeNull();
    expect(parseBankAmount('1.2.3', '.', 'USD')).toBeNull();
    expect(parseBankAmount('99999999999999999', '.', 'USD')).toBeNull();
  });
});

describe('parseStatement', () => {
  it('keeps only incoming amounts, with a signed amount column', () => {
    const file = utf8(
      'Date,Details,Amount,Balance\n2024-03-01,"ACME, INC INV-7",100.00,1100.00\n2024-03-02,Rent,-50.00,1050.00\n\n',
    );
    const parsed = parseStatement(file, mapping({ amount: 2, balance: 3 }), 'USD');
    expect(parsed.lines).toEqual([
      {
        line: 2,
        date: '2024-03-01',
        amount: 10000,
        description: 'ACME, INC INV-7',
        reference: '',
        balance: 110000,
      },
    ]);
    expect(parsed.skipped).toBe(1);
  });

  it('reads debit and credit columns, decimal commas, day first', () => {
    const file = utf8(
      'Datum;Text;Soll;Haben\n01.03.2024;Miete;500,00;\n02.03.2024;Tan Ah Kow;;1.250,50\n',
    );
    const parsed = parseStatement(
      file,
      mapping({ debit: 2, credit: 3, dateOrder: 'DMY', decimal: ',' }),
      'MYR',
    );
    expect(
      parsed.lines.map(({ date, amount, description }) => [date, amount, description]),
    ).toEqual([['2024-03-02', 125050, 'Tan Ah Kow']]);
  });

  it('decodes EUC-KR, as Korean banks write their files', () => {
    // "2024-03-05,김민준,50000" in EUC-KR: 김 B1E8, 민 B9CE, 준 C1D8.
    const bytes = new Uint8Array([
      ...utf8('date,name,amount\n2024-03-05,'),
      0xb1,
      0xe8,
      0xb9,
      0xce,
      0xc1,
      0xd8,
      ...utf8(',"50,000"\n'),
    ]);
    const parsed = parseStatement(bytes, mapping({ amount: 2, encoding: 'euc-kr' }), 'KRW');
    expect(parsed.lines[0]?.description).toBe('김민준');
    expect(parsed.lines[0]?.amount).toBe(50000);
    // The same bytes read as UTF-8 are refused, not turned into replacement marks.
    expect(refusal(() => parseStatement(bytes, mapping({ amount: 2 }), 'KRW')).message).toBe(
      'The file is not in the encoding chosen (utf-8).',
    );
  });

  it('decodes CP949, the syllables EUC-KR lacks included, and refuses bytes of neither', () => {
    // "똠방 한빛㈜" in CP949: 똠 8C63 is of the extension; 방 B9E6, 한 C7D1, 빛 BAFB, ㈜ A2DF.
    const bytes = new Uint8Array([
      ...utf8('date,name,amount\n2024-03-05,'),
      0x8c,
      0x63,
      0xb9,
      0xe6,
      0x20,
      0xc7,
      0xd1,
      0xba,
      0xfb,
      0xa2,
      0xdf,
      ...utf8(',1000\n'),
    ]);
    const parsed = parseStatement(bytes, mapping({ amount: 2, encoding: 'euc-kr' }), 'KRW');
    expect(parsed.lines[0]?.description).toBe('똠방 한빛㈜');
    const broken = new Uint8Array([...utf8('d,n,a\n2024-03-05,'), 0xff, 0x30, ...utf8(',1\n')]);
    expect(
      refusal(() => parseStatement(broken, mapping({ amount: 2, encoding: 'euc-kr' }), 'KRW'))
        .message,
    ).toBe('The file is not in the encoding chosen (euc-kr).');
  });

  it('names the line and column of a bad date or amount', () => {
    const file = utf8('d,t,a\n2024-03-01,x,10\n2024-13-01,y,10\n');
    const bad = refusal(() => parseStatement(file, mapping({ amount: 2 }), 'USD'));
    expect(bad.status).toBe(400);
    expect(bad.message).toBe('Line 3, column 1: this is not a date in the order chosen.');
    const badAmount = utf8('d,t,a\n2024-03-01,x,ten\n');
    expect(refusal(() => parseStatement(badAmount, mapping({ amount: 2 }), 'USD')).message).toBe(
      'Line 2, column 3: this is not an amount.',
    );
  });

  it('refuses more lines than a statement may have', () => {
    const file = utf8(`h\n${'2024-01-01,x,1\n'.repeat(20_001)}`);
    expect(refusal(() => parseStatement(file, mapping({ amount: 2 }), 'USD')).message).toBe(
      'A statement may have at most 20000 lines.',
    );
  });
});

describe('bankLineId', () => {
  const line = { date: '2024-03-01', amount: 100, description: 'ACME', balance: 500 };
  it('is the same for the same line and differs with the account or the running balance', () => {
    expect(bankLineId('Main', 'USD', line)).toBe(bankLineId(' main ', 'USD', { ...line }));
    expect(bankLineId('Savings', 'USD', line)).not.toBe(bankLineId('Main', 'USD', line));
    expect(bankLineId('Main', 'USD', { ...line, balance: 600 })).not.toBe(
      bankLineId('Main', 'USD', line),
    );
  });
});
