import { describe, expect, it } from 'vitest';
import type { PreviewLine } from '../../../shared/schemas/bank.ts';
import { bankImportReducer, initialBankImport, type Previewed } from './bank-import-state.ts';

const line = (id: string, overrides: Partial<PreviewLine> = {}): PreviewLine => ({
  line: 2,
  date: '2026-04-03',
  amount: 150_00,
  description: 'TRF INV-2041',
  reference: '',
  balance: null,
  id,
  alreadyRecorded: false,
  suggestions: [{ clientId: 'ada', reason: 'amount', confidence: 'medium' }],
  ...overrides,
});

const previewed = (lines: PreviewLine[]): Previewed => ({
  accountLabel: 'Main',
  currency: 'USD',
  lines,
  skipped: 0,
  twins: 0,
  layout: undefined,
});

const ada = { id: 'ada', firstName: 'Ada', lastName: 'Lovelace' };

describe('the bank import’s steps', () => {
  it('a preview starts the review afresh: its lines’ first choices, all shown, no problem', () => {
    let state = bankImportReducer(initialBankImport(null), { type: 'filter', filter: 'low' });
    state = bankImportReducer(state, { type: 'record-asked' });
    state = bankImportReducer(state, {
      type: 'previewed',
      previewed: previewed([line('a'), line('b', { suggestions: [] })]),
      clients: [ada],
    });
    expect(state.filter).toBe('all');
    expect(state.tried).toBe(false);
    expect(state.clients.get('ada')).toEqual(ada);
    expect(state.choices.get('a')).toEqual({
      selected: false,
      split: false,
      parts: [{ clientId: 'ada', amountText: '' }],
    });
    expect(state.choices.get('b')?.parts).toEqual([{ clientId: null, amountText: '' }]);
  });

  it('"select the sure ones" ticks only lines not recorded before whose best match is high', () => {
    const sure = [{ clientId: 'bob', reason: 'reference', confidence: 'high' }] as const;
    let state = bankImportReducer(initialBankImport(null), {
      type: 'previewed',
      previewed: previewed([
        line('medium'),
        line('high', { suggestions: [...sure] }),
        line('recorded', { suggestions: [...sure], alreadyRecorded: true }),
      ]),
      clients: [],
    });
    // A sure line the owner had turned to another client goes back to the sure one.
    state = bankImportReducer(state, {
      type: 'choose',
      lineId: 'high',
      choice: { selected: false, split: false, parts: [{ clientId: 'ada', amountText: '' }] },
    });
    state = bankImportReducer(state, { type: 'select-high' });
    expect(state.choices.get('high')).toEqual({
      selected: true,
      split: false,
      parts: [{ clientId: 'bob', amountText: '' }],
    });
    expect(state.choices.get('medium')?.selected).toBe(false);
    expect(state.choices.get('recorded')?.selected).toBe(false);
  });

  it('lines to fix show every line again; a refusal of the server keeps the filter', () => {
    let state = bankImportReducer(initialBankImport(null), { type: 'filter', filter: 'high' });
    state = bankImportReducer(state, { type: 'record-refused', problem: 'Fix 1', showAll: false });
    expect(state).toMatchObject({ filter: 'high', confirmProblem: 'Fix 1' });
    state = bankImportReducer(state, { type: 'record-refused', problem: 'Fix 2', showAll: true });
    expect(state).toMatchObject({ filter: 'all', confirmProblem: 'Fix 2' });
  });

  it('a result kept from before is shown again, and starting again leaves it', () => {
    const outcome = {
      confirmed: { batchId: 'b1', recorded: [], alreadyRecorded: [] },
      paid: [],
      currency: 'USD' as const,
    };
    let state = initialBankImport({ outcome, undone: null });
    expect(state.outcome).toBe(outcome);
    state = bankImportReducer(state, { type: 'undone', voided: 3 });
    expect(state.undone).toBe(3);
    state = bankImportReducer(state, { type: 'start-again' });
    expect(state).toMatchObject({ outcome: null, previewed: null });
    expect(state.choices.size).toBe(0);
  });
});
