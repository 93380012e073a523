import { describe, expect, it } from 'vitest';
import { currencyCanChange, entryFormSchema, parseEntryAmount } from './ledger.ts';

describe('currencyCanChange', () => {
  it('allows a change while only opening balances and their voids are recorded', () => {
    expect(currencyCanChange([])).toBe(true);
    expect(currencyCanChange([{ id: 1, kind: 'opening', voidOf: null }])).toBe(true);
    expect(
      currencyCanChange([
        { id: 1, kind: 'opening', voidOf: null },
        { id: 2, kind: 'void', voidOf: 1 },
        { id: 3, kind: 'opening', voidOf: null },
      ]),
    ).toBe(true);
  });

  it('keeps the currency once anything else is recorded, voided or not', () => {
    for (const kind of ['charge', 'payment', 'credit', 'adjustment'] as const) {
      expect(currencyCanChange([{ id: 1, kind, voidOf: null }]), kind).toBe(false);
      expect(
        currencyCanChange([
          { id: 1, kind, voidOf: null },
          { id: 2, kind: 'void', voidOf: 1 },
        ]),
        kind,
      ).toBe(false);
    }
  });
});

describe('the entry form', () => {
  const schema = entryFormSchema('USD', () => '2026-11-22');
  const errorsOf = (form: Record<string, string>): Record<string, string> => {
    const result = schema.safeParse({
      amount: '',
      date: '2026-11-22',
      dueDate: '',
      note: '',
      reference: '',
      method: 'bank_transfer',
      ...form,
    });
    return result.success
      ? {}
      : Object.fromEntries(
          result.error.issues.map((issue) => [String(issue.path[0]), issue.message]),
        );
  };

  it('takes an amount in the currency’s decimals, today or earlier, and a due date after it', () => {
    expect(errorsOf({ amount: '1,200.50', dueDate: '2026-12-31', reference: 'INV-7' })).toEqual({});
    expect(errorsOf({ amount: '5', method: 'cash' })).toEqual({});
    expect(errorsOf({ amount: '5', method: 'barter' })).toEqual({
      method: 'Choose how it was paid.',
    });
    expect(errorsOf({ amount: '5', reference: 'x'.repeat(41) })).toEqual({
      reference: 'Use at most 40 characters.',
    });
    expect(errorsOf({ amount: '' })).toEqual({ amount: 'Enter an amount.' });
    expect(errorsOf({ amount: '0' })).toEqual({ amount: 'Enter an amount above 0.' });
    expect(errorsOf({ amount: '-3' })).toEqual({ amount: 'Enter an amount above 0.' });
    expect(errorsOf({ amount: '1.005' })).toEqual({ amount: 'Use at most 2 decimal places.' });
    expect(errorsOf({ amount: '5', date: '2026-11-23' })).toEqual({
      date: 'The date cannot be in the future.',
    });
    expect(errorsOf({ amount: '5', dueDate: '2026-11-21' })).toEqual({
      dueDate: 'The due date cannot be before the date of the charge.',
    });
    expect(errorsOf({ amount: '5', date: '2026-02-30' })).toEqual({
      date: 'Enter a date as YYYY-MM-DD.',
    });
  });

  it('parses the amount into minor units of the currency', () => {
    expect(parseEntryAmount('3,000', 'KRW')).toEqual({ ok: true, minor: 3000 });
    expect(parseEntryAmount('3.5', 'KRW')).toEqual({
      ok: false,
      error: 'KRW has no decimal places.',
    });
    expect(parseEntryAmount('0.01', 'MYR')).toEqual({ ok: true, minor: 1 });
  });
});
