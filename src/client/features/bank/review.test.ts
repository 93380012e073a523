import { describe, expect, it } from 'vitest';
import type { PreviewLine } from '../../../shared/schemas/bank.ts';
import { allocationsOf, confirmedLine, initialChoice, shownBy } from './review.ts';

const line = (overrides: Partial<PreviewLine> = {}): PreviewLine => ({
  line: 2,
  date: '2026-04-03',
  amount: 150_00,
  description: 'TRF INV-2041',
  reference: '',
  balance: null,
  id: 'line-id',
  alreadyRecorded: false,
  suggestions: [{ clientId: 'ada', reason: 'reference', confidence: 'high' }],
  ...overrides,
});

describe('a line of the review', () => {
  it('starts checked only with a strong suggestion, never when recorded before', () => {
    expect(initialChoice(line()).selected).toBe(true);
    expect(initialChoice(line({ alreadyRecorded: true })).selected).toBe(false);
    const medium = line({
      suggestions: [{ clientId: 'ada', reason: 'amount', confidence: 'medium' }],
    });
    expect(initialChoice(medium)).toEqual({
      selected: false,
      split: false,
      parts: [{ clientId: 'ada', amountText: '' }],
    });
    expect(initialChoice(line({ suggestions: [] })).parts).toEqual([
      { clientId: null, amountText: '' },
    ]);
  });

  it('is filtered by its best suggestion’s confidence, or as unmatched', () => {
    expect(shownBy('high', line())).toBe(true);
    expect(shownBy('low', line())).toBe(false);
    expect(shownBy('unmatched', line({ suggestions: [] }))).toBe(true);
    expect(shownBy('all', line({ suggestions: [] }))).toBe(true);
  });

  it('pays one client the whole amount, or a split whose parts add up to it', () => {
    expect(allocationsOf(line(), initialChoice(line()), 'USD')).toEqual({
      ok: true,
      allocations: [{ clientId: 'ada', amount: 150_00 }],
    });
    const split = (a: string, b: string) => ({
      selected: true,
      split: true,
      parts: [
        { clientId: 'ada', amountText: a },
        { clientId: 'grace', amountText: b },
      ],
    });
    expect(allocationsOf(line(), split('100', '50.00'), 'USD')).toEqual({
      ok: true,
      allocations: [
        { clientId: 'ada', amount: 100_00 },
        { clientId: 'grace', amount: 50_00 },
      ],
    });
    expect(allocationsOf(line(), split('100', '40'), 'USD')).toEqual({
      ok: false,
      problem: { kind: 'sum', total: 140_00, difference: 10_00 },
    });
    expect(allocationsOf(line(), split('100', ''), 'USD')).toMatchObject({
      ok: false,
      problem: { kind: 'bad-amount', part: 1 },
    });
    expect(
      allocationsOf(line({ suggestions: [] }), initialChoice(line({ suggestions: [] })), 'USD'),
    ).toEqual({
      ok: false,
      problem: { kind: 'no-client' },
    });
  });

  it('is sent back with every field the server gave it, as it was', () => {
    const previewed = { ...line(), bankId: 'FITID-77' } as PreviewLine;
    expect(confirmedLine(previewed, [{ clientId: 'ada', amount: 150_00 }])).toEqual({
      line: 2,
      date: '2026-04-03',
      amount: 150_00,
      description: 'TRF INV-2041',
      reference: '',
      balance: null,
      id: 'line-id',
      bankId: 'FITID-77',
      allocations: [{ clientId: 'ada', amount: 150_00 }],
    });
  });
});
