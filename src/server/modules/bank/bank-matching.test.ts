import { describe, expect, it } from 'vitest';
import type { BankLine } from '../../../shared/schemas/bank.ts';
import { buildMatcher, payerKey, type MatchBook } from './bank-matching.ts';

const line = (description: string, amount = 1, reference = ''): BankLine => ({
  line: 2,
  date: '2024-03-01',
  amount,
  description,
  reference,
  balance: null,
});

const book: MatchBook = {
  clients: [
    { id: 'minjun', firstName: '민준', lastName: '김', balance: 50_000 },
    { id: 'hanbit', firstName: '한빛상사', lastName: '', balance: 120_000 },
    { id: 'zoe', firstName: 'Zoé', lastName: 'Müller', balance: 7_000 },
    { id: 'ahkow', firstName: 'Ah Kow', lastName: 'Tan', balance: 9_999 },
    { id: 'ahkow2', firstName: 'Ah Kow', lastName: 'Tan', balance: 0 },
  ],
  openItems: [
    { clientId: 'zoe', openAmount: 3_000, reference: 'INV-2024-007' },
    { clientId: 'zoe', openAmount: 4_000, reference: '' },
    { clientId: 'minjun', openAmount: 4_000, reference: '' },
    { clientId: 'hanbit', openAmount: 120_000, reference: '12' },
  ],
  rules: [{ payerKey: payerKey('HANBIT TRADING CO 0301'), clientId: 'hanbit' }],
};
const match = buildMatcher(book);

describe('buildMatcher', () => {
  it('finds an open charge’s reference in the description, however it is spaced', () => {
    expect(match(line('TRANSFER inv 2024 007 thanks', 3_000))[0]).toEqual({
      clientId: 'zoe',
      reason: 'reference',
      confidence: 'high',
    });
    expect(match(line('PAYMENT', 1, 'Inv-2024/007'))[0]?.clientId).toBe('zoe');
  });

  it('ignores references too short to mean anything', () => {
    expect(match(line('ORDER 12 PAID', 5))).toEqual([]);
  });

  it('matches a learned payer text, whatever the date numbers in it', () => {
    expect(match(line('HANBIT TRADING CO 0402', 5))[0]).toEqual({
      clientId: 'hanbit',
      reason: 'rule',
      confidence: 'high',
    });
  });

  it('matches an amount owed by one client, and marks an amount owed by two as unsure', () => {
    expect(match(line('TRANSFER', 3_000))[0]).toMatchObject({
      clientId: 'zoe',
      reason: 'amount',
      confidence: 'medium',
    });
    expect(match(line('TRANSFER', 7_000))[0]).toMatchObject({ clientId: 'zoe', reason: 'balance' });
    expect(
      match(line('TRANSFER', 4_000)).map((found) => [found.clientId, found.confidence]),
    ).toEqual([
      ['zoe', 'low'],
      ['minjun', 'low'],
    ]);
  });

  it('matches names without accents, case or spacing, Hangul in either order', () => {
    expect(match(line('FROM ZOE MULLER', 1))[0]).toMatchObject({ clientId: 'zoe', reason: 'name' });
    expect(match(line('김민준 3월분', 1))[0]).toMatchObject({ clientId: 'minjun', reason: 'name' });
    expect(match(line('민준 김', 1))[0]).toMatchObject({ clientId: 'minjun', reason: 'name' });
    expect(match(line('IBG TAN AH KOW', 1)).map((found) => found.clientId)).toEqual([
      'ahkow',
      'ahkow2',
    ]);
  });

  it('prefers the named client who owes that amount over others owing it', () => {
    expect(match(line('민준 김', 4_000))[0]).toEqual({
      clientId: 'minjun',
      reason: 'name',
      confidence: 'high',
    });
  });

  it('suggests nothing for a stranger', () => {
    expect(match(line('SALARY ACME CORP', 123))).toEqual([]);
  });
});

describe('payerKey', () => {
  it('keeps the letters of the payer only', () => {
    expect(payerKey('HANBIT  TRADING-CO 20240301')).toBe('hanbit trading co');
    expect(payerKey('Zoé Müller')).toBe('zoe muller');
  });
});
