import { describe, expect, it } from 'vitest';
import type { Entry } from '../../../../shared/schemas/ledger.ts';
import { ledgerRows } from './ledger-rows.ts';

const entry = (
  overrides: Partial<Entry> & Pick<Entry, 'id' | 'amount' | 'date' | 'runningBalance'>,
): Entry => ({
  kind: 'charge',
  currency: 'USD',
  dueDate: null,
  note: '',
  reference: '',
  voidOf: null,
  voidedBy: null,
  enteredBy: null,
  enteredAt: '2026-11-03T10:00:00.000Z',
  bank: null,
  method: null,
  pays: [],
  paidBy: [],
  open: 0,
  corrects: null,
  correctedBy: null,
  ...overrides,
});

const shown = (entries: Entry[]) =>
  ledgerRows(entries).map((row) => [row.entry.id, row.voidedPair, row.runningBalance]);

describe('the ledger rows', () => {
  it('keep the server’s order and its running balance', () => {
    const entries = [
      entry({ id: 4, amount: 50_00, date: '2026-09-20', runningBalance: '5000' }),
      entry({
        id: 1,
        amount: 500_00,
        kind: 'opening',
        date: '2026-10-01',
        runningBalance: '55000',
      }),
      entry({ id: 2, amount: 120_00, date: '2026-10-05', runningBalance: '67000' }),
    ];
    expect(shown(entries)).toEqual([
      [4, false, 50_00n],
      [1, false, 550_00n],
      [2, false, 670_00n],
    ]);
  });

  it('put a void under the entry it reverses, both greyed with no balance', () => {
    // The $99,999 slip: recorded, then voided a week later after another payment.
    const entries = [
      entry({
        id: 1,
        amount: 2_421_50,
        kind: 'opening',
        date: '2026-10-01',
        runningBalance: '242150',
      }),
      entry({
        id: 2,
        amount: -99_999_00,
        kind: 'payment',
        date: '2026-10-02',
        voidedBy: 4,
        runningBalance: null,
      }),
      entry({
        id: 3,
        amount: -421_50,
        kind: 'payment',
        date: '2026-10-05',
        runningBalance: '200000',
      }),
      entry({
        id: 4,
        amount: 99_999_00,
        kind: 'void',
        date: '2026-10-09',
        voidOf: 2,
        runningBalance: null,
      }),
      entry({ id: 5, amount: 100_00, date: '2026-10-10', runningBalance: '210000' }),
    ];
    expect(shown(entries)).toEqual([
      [1, false, 2_421_50n],
      [2, true, null],
      [4, true, null],
      [3, false, 2_000_00n],
      [5, false, 2_100_00n],
    ]);
  });

  it('grey a void whose entry is on a page not loaded yet, where it stands', () => {
    const entries = [
      entry({
        id: 7,
        amount: 40_00,
        kind: 'void',
        date: '2026-10-02',
        voidOf: 6,
        runningBalance: null,
      }),
      entry({ id: 8, amount: 10_00, date: '2026-10-03', runningBalance: '5000' }),
    ];
    expect(shown(entries)).toEqual([
      [7, true, null],
      [8, false, 50_00n],
    ]);
  });

  it('read balances past 2^53 without losing a unit', () => {
    const entries = [
      entry({ id: 1, amount: 1, date: '2026-10-01', runningBalance: '9007199254740993' }),
    ];
    expect(ledgerRows(entries).at(-1)?.runningBalance).toBe(2n ** 53n + 1n);
  });
});
