import { describe, expect, it } from 'vitest';
import type { Entry } from '../../../../shared/schemas/ledger.ts';
import { ledgerRows } from './ledger-rows.ts';

const entry = (overrides: Partial<Entry> & Pick<Entry, 'id' | 'amount' | 'date'>): Entry => ({
  kind: 'charge',
  currency: 'USD',
  dueDate: null,
  note: '',
  reference: '',
  voidOf: null,
  voidedBy: null,
  enteredBy: null,
  enteredAt: '2026-11-03T10:00:00.000Z',
  runningBalance: '0',
  ...overrides,
});

const shown = (entries: Entry[]) =>
  ledgerRows(entries).map((row) => [row.entry.id, row.voidedPair, row.runningBalance]);

describe('the ledger rows', () => {
  it('are oldest first, by date and then as entered, with the balance after each', () => {
    // A back-dated charge entered last still sorts by its date.
    const entries = [
      entry({ id: 3, amount: -200_00, kind: 'payment', date: '2026-10-05' }),
      entry({ id: 1, amount: 500_00, kind: 'opening', date: '2026-10-01' }),
      entry({ id: 4, amount: 50_00, date: '2026-09-20' }),
      entry({ id: 2, amount: 120_00, date: '2026-10-05' }),
    ];
    expect(shown(entries)).toEqual([
      [4, false, 50_00n],
      [1, false, 550_00n],
      [2, false, 670_00n],
      [3, false, 470_00n],
    ]);
  });

  it('put a void under the entry it reverses, and leave both out of the running balance', () => {
    // The $99,999 slip: recorded, then voided a week later after another payment.
    const entries = [
      entry({ id: 1, amount: 2_421_50, kind: 'opening', date: '2026-10-01' }),
      entry({ id: 2, amount: -99_999_00, kind: 'payment', date: '2026-10-02', voidedBy: 4 }),
      entry({ id: 3, amount: -421_50, kind: 'payment', date: '2026-10-05' }),
      entry({ id: 4, amount: 99_999_00, kind: 'void', date: '2026-10-09', voidOf: 2 }),
      entry({ id: 5, amount: 100_00, date: '2026-10-10' }),
    ];
    expect(shown(entries)).toEqual([
      [1, false, 2_421_50n],
      [2, true, null],
      [4, true, null],
      [3, false, 2_000_00n],
      [5, false, 2_100_00n],
    ]);
  });

  it('keep a sum per currency, so an opening voided by a change of currency mixes with nothing', () => {
    const entries = [
      entry({
        id: 1,
        amount: 300_000,
        currency: 'KRW',
        kind: 'opening',
        date: '2026-10-01',
        voidedBy: 2,
      }),
      entry({
        id: 2,
        amount: -300_000,
        currency: 'KRW',
        kind: 'void',
        date: '2026-10-02',
        voidOf: 1,
      }),
      entry({ id: 3, amount: 250_00, kind: 'opening', date: '2026-10-02' }),
      entry({ id: 4, amount: 10_00, currency: 'KRW', kind: 'adjustment', date: '2026-10-03' }),
      entry({ id: 5, amount: -50_00, kind: 'payment', date: '2026-10-04' }),
    ];
    expect(shown(entries)).toEqual([
      [1, true, null],
      [2, true, null],
      [3, false, 250_00n],
      [4, false, 10_00n],
      [5, false, 200_00n],
    ]);
  });

  it('count a void whose entry is not among them, so the last balance is still the balance', () => {
    const entries = [
      entry({ id: 7, amount: 40_00, kind: 'void', date: '2026-10-02', voidOf: 6 }),
      entry({ id: 8, amount: 10_00, date: '2026-10-03' }),
    ];
    expect(shown(entries)).toEqual([
      [7, false, 40_00n],
      [8, false, 50_00n],
    ]);
  });

  it('add up past 2^53 without losing a unit', () => {
    const big = 2 ** 52;
    const entries = [
      entry({ id: 1, amount: big, date: '2026-10-01' }),
      entry({ id: 2, amount: big + 1, date: '2026-10-02' }),
    ];
    expect(ledgerRows(entries).at(-1)?.runningBalance).toBe(2n ** 53n + 1n);
  });
});
