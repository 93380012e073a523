import { describe, expect, it } from 'vitest';
import { bankLayoutKey, bankLayoutKeyPattern } from './bank-layout.ts';

describe('bankLayoutKey', () => {
  it('is the same for the same header written with other case, spacing or a byte-order mark', () => {
    const key = bankLayoutKey(['Date', 'Description', 'Amount']);
    expect(key).toMatch(bankLayoutKeyPattern);
    expect(bankLayoutKey(['\uFEFFdate ', ' DESCRIPTION', 'amount'])).toBe(key);
    expect(bankLayoutKey(['거래일자', '적요', '입금액'])).toBe(
      bankLayoutKey(['거래일자', '적요 ', '입금액']),
    );
  });

  it('tells apart headers with other columns, or the same words in other places', () => {
    const key = bankLayoutKey(['Date', 'Description', 'Amount']);
    expect(bankLayoutKey(['Date', 'Amount', 'Description'])).not.toBe(key);
    expect(bankLayoutKey(['Date', 'Description', 'Amount', 'Balance'])).not.toBe(key);
    expect(bankLayoutKey(['Date', 'Description Amount'])).not.toBe(key);
  });
});
