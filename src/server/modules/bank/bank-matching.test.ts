import { describe, expect, it } from 'vitest';
import type { BankLine } from '../../../shared/schemas/bank.ts';
import { buildMatchIndex, buildMatcher, payerKey, type MatchBook } from './bank-matching.ts';

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
  // Issue 53: a high suggestion is certain, one strong signal and nothing against it.
  const traps: MatchBook = {
    clients: [
      { id: 'lim', firstName: 'Wei Ming', lastName: 'Lim', balance: 50_000 },
      { id: 'rahman', firstName: 'Ahmad', lastName: 'Rahman', balance: 32_000 },
      { id: 'tan1', firstName: 'Ah Kow', lastName: 'Tan', balance: 20_000 },
      { id: 'tan2', firstName: 'Ah Kow', lastName: 'Tan', balance: 0 },
    ],
    openItems: [
      { clientId: 'lim', openAmount: 50_000, reference: 'INV-3307' },
      { clientId: 'rahman', openAmount: 32_000, reference: 'INV-3308' },
      { clientId: 'tan1', openAmount: 20_000, reference: 'INV-3309' },
    ],
    rules: [{ payerKey: payerKey('ACME HOLDINGS'), clientId: 'rahman' }],
  };
  const trapped = buildMatcher(traps);

  it('trusts a reference only with an amount that fits and no other payer named', () => {
    expect(trapped(line('IBG LIM WEI MING INV-3307', 50_000))[0]).toEqual({
      clientId: 'lim',
      reason: 'reference',
      confidence: 'high',
    });
    // A typo names Lim's charge; the payer is Rahman, paying his own amount: Rahman first.
    const typo = trapped(line('IBG AHMAD RAHMAN INV-3307', 32_000));
    expect(typo).toEqual([
      {
        clientId: 'rahman',
        reason: 'name',
        confidence: 'medium',
        caution: {
          kind: 'reference',
          reference: 'INV-3307',
          otherClientId: 'lim',
        },
      },
      {
        clientId: 'lim',
        reason: 'reference',
        confidence: 'medium',
        caution: {
          kind: 'payer',
          reference: 'INV-3307',
          otherClientId: 'rahman',
        },
      },
    ]);
    // The same typo with nobody named: the amount is Rahman's charge, one character off.
    const alone = trapped(line('IBG TRANSFER', 32_000, 'INV-3307'));
    expect(alone.every((suggestion) => suggestion.confidence !== 'high')).toBe(true);
    expect(alone[0]).toMatchObject({ clientId: 'rahman', caution: { kind: 'reference' } });
    expect(alone[1]).toMatchObject({ clientId: 'lim', caution: { kind: 'amount' } });
    // A slip naming no charge at all: the charge one character off, of exactly that amount.
    expect(trapped(line('IBG TRANSFER INV-3318', 32_000))[0]).toEqual({
      clientId: 'rahman',
      reason: 'reference',
      confidence: 'medium',
      caution: { kind: 'near', reference: 'INV-3308' },
    });
  });

  it('keeps namesakes, a rule against a name and two references from high', () => {
    const namesake = trapped(line('TAN AH KOW', 20_000));
    expect(namesake[0]).toEqual({
      clientId: 'tan1',
      reason: 'name',
      confidence: 'medium',
      caution: { kind: 'namesake', otherClientId: 'tan2' },
    });
    expect(namesake.some((suggestion) => suggestion.confidence === 'high')).toBe(false);
    expect(trapped(line('ACME HOLDINGS', 32_000))[0]).toMatchObject({
      clientId: 'rahman',
      reason: 'rule',
      confidence: 'high',
    });
    // The learned payer pays with Lim's reference and amount: Lim's, not certain.
    expect(trapped(line('ACME HOLDINGS', 50_000, 'INV-3307'))[0]).toMatchObject({
      clientId: 'lim',
      confidence: 'medium',
      caution: { kind: 'rule', otherClientId: 'rahman' },
    });
    const both = trapped(line('INV-3307 INV-3308', 82_000));
    expect(both.map((suggestion) => suggestion.confidence)).toEqual(['low', 'low']);
  });

  it('learns a payer text only from a line no reference and no other client explains', () => {
    const { learnedFrom } = buildMatchIndex(traps);
    expect(learnedFrom(line('IBG AHMAD RAHMAN', 32_000), 'rahman')).toBe('name');
    expect(learnedFrom(line('SOMEONE ELSE', 32_000), 'rahman')).toBe('amount');
    expect(learnedFrom(line('SOMEONE ELSE', 1), 'rahman')).toBe('manual');
    // Another client's name, a namesake, a reference: nothing is learned.
    expect(learnedFrom(line('IBG AHMAD RAHMAN', 50_000), 'lim')).toBeNull();
    expect(learnedFrom(line('TAN AH KOW', 20_000), 'tan1')).toBeNull();
    expect(learnedFrom(line('PAYMENT INV-3307', 50_000), 'lim')).toBeNull();
    expect(learnedFrom(line('SOMEONE', 50_000, 'INV-3307'), 'rahman')).toBeNull();
  });

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
    expect(match(line('HANBIT TRADING CO 0402', 120_000))[0]).toEqual({
      clientId: 'hanbit',
      reason: 'rule',
      confidence: 'high',
    });
    // An amount the payer owes nothing of: still theirs first, but not certain.
    expect(match(line('HANBIT TRADING CO 0402', 5))[0]).toEqual({
      clientId: 'hanbit',
      reason: 'rule',
      confidence: 'medium',
      caution: { kind: 'amount' },
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

  it('matches a Korean name romanised, in either order, however its syllables are spaced', () => {
    for (const written of ['MINJUN KIM', 'KIM MINJUN', 'KIM MIN JUN', 'MIN-JUN KIM', 'GIM MINJUN'])
      expect(match(line(`IBG ${written} MAR`, 1))[0], written).toEqual({
        clientId: 'minjun',
        reason: 'name',
        confidence: 'medium',
      });
    // Named and owing exactly that amount, as for a name in Hangul.
    expect(match(line('MINJUN KIM', 4_000))[0]).toEqual({
      clientId: 'minjun',
      reason: 'name',
      confidence: 'high',
    });
  });

  it('does not match a family name alone, another given name or another family name', () => {
    for (const written of ['KIM', 'KIM SEOYEON', 'MINJI KIM', 'PARK MINJUN', 'MINJUN'])
      expect(match(line(`TRANSFER ${written}`, 1)), written).toEqual([]);
  });

  it('knows the usual spellings of family names, and a name typed in one part', () => {
    const korean = buildMatcher({
      clients: [
        { id: 'lee', firstName: '서연', lastName: '이', balance: 0 },
        { id: 'park', firstName: '박지훈', lastName: '', balance: 0 },
        { id: 'namgung', firstName: '', lastName: '남궁민', balance: 0 },
        { id: 'choi', firstName: '국민', lastName: '최', balance: 0 },
      ],
      openItems: [],
      rules: [],
    });
    const who = (text: string) => korean(line(text))[0]?.clientId;
    expect(who('LEE SEOYEON')).toBe('lee');
    expect(who('SEO YEON RHEE')).toBe('lee');
    expect(who('YI SEOYEON')).toBe('lee');
    expect(who('PARK JIHUN')).toBe('park');
    expect(who('JI-HUN PAK')).toBe('park');
    expect(who('NAMGUNG MIN')).toBe('namgung');
    // A given name is written syllable by syllable, without the word's sound changes.
    expect(who('CHOI GUKMIN')).toBe('choi');
    expect(who('CHOE GUKMIN')).toBe('choi');
    expect(who('CHOI GUNGMIN')).toBeUndefined();
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

// Issue 57: names and references as people write them.
describe('buildMatcher on what people write', () => {
  const written = buildMatcher({
    clients: [
      { id: 'hanbit', firstName: '한빛', lastName: '상사', balance: 0 },
      { id: 'daesung', firstName: '주식회사', lastName: '대성물산', balance: 0 },
      { id: 'jo', firstName: '민석', lastName: '조', balance: 0 },
      { id: 'hyunwoo', firstName: '현우', lastName: '김', balance: 0 },
      { id: 'maju', firstName: 'Maju Jaya', lastName: 'Sdn Bhd', balance: 0 },
      { id: 'faiz', firstName: 'Ahmad Faiz', lastName: 'Rahman', balance: 0 },
      { id: 'siti', firstName: 'Siti Nora', lastName: 'Abdullah', balance: 0 },
      { id: 'meiling1', firstName: 'Mei Ling', lastName: 'Wong', balance: 0 },
      { id: 'meiling2', firstName: 'Mei Ling', lastName: 'Tan', balance: 0 },
    ],
    openItems: [
      { clientId: 'hanbit', openAmount: 100, reference: '청구-2026-118' },
      { clientId: 'hanbit', openAmount: 200, reference: '청구-2026-014' },
      { clientId: 'hanbit', openAmount: 300, reference: '청구-2026-052' },
      { clientId: 'maju', openAmount: 400, reference: 'INV-2210' },
      { clientId: 'maju', openAmount: 500, reference: 'INV-2214' },
      { clientId: 'faiz', openAmount: 600, reference: 'INV-2231' },
    ],
    rules: [],
  });
  const first = (text: string, amount = 7) => written(line(text, amount))[0];

  it('reads a Korean legal form before or after the name, written out or abbreviated', () => {
    for (const text of [
      '주식회사 한빛상사',
      '한빛상사 주식회사',
      '(주)한빛상사',
      '㈜한빛상사',
      '한빛상사(주)',
      '주식회사한빛상사',
      '한빛상사 대표 김철수',
      '대표 김철수 한빛상사',
    ])
      expect(first(text), text).toMatchObject({ clientId: 'hanbit', reason: 'name' });
    // The book keeps the legal form; the bank leaves it out, or writes it another way.
    for (const text of ['대성물산', '대성물산(주)', '유한회사 대성물산'])
      expect(first(text), text).toMatchObject({ clientId: 'daesung', reason: 'name' });
  });

  it('reads Malaysian legal forms, BIN and BINTI, and a given name of two words alone', () => {
    for (const text of ['MAJU JAYA', 'MAJU JAYA S/B', 'MAJU JAYA SDN. BHD.', 'MAJU JAYA SB'])
      expect(first(`IBG ${text}`), text).toMatchObject({ clientId: 'maju', reason: 'name' });
    for (const text of ['AHMAD FAIZ BIN RAHMAN', 'AHMAD FAIZ B. RAHMAN', 'AHMAD FAIZ B RAHMAN'])
      expect(first(text), text).toMatchObject({ clientId: 'faiz', confidence: 'medium' });
    expect(first('SITI NORA BINTI ABDULLAH')).toMatchObject({ clientId: 'siti' });
    expect(first('SITI NORA BT ABDULLAH')).toMatchObject({ clientId: 'siti' });
    // A given name alone: a suggestion, never certain, and unsure when two clients have it.
    expect(first('IBG AHMAD FAIZ', 600)).toMatchObject({ clientId: 'faiz', confidence: 'medium' });
    expect(written(line('MEI LING')).map((found) => found.confidence)).toEqual(['low', 'low']);
  });

  it('reads a romanised Korean given name however its bearer spells it', () => {
    for (const text of ['MINSEOK JO', 'MINSUK JO', 'JO MIN SEOK', 'CHO MINSUK'])
      expect(first(text), text).toMatchObject({ clientId: 'jo', reason: 'name' });
    for (const text of ['HYUNWOO KIM', 'KIM HYUN WOO', 'HYEONU KIM'])
      expect(first(text), text).toMatchObject({ clientId: 'hyunwoo' });
  });

  it('reads a reference without its prefix, spelled out, or several in one memo', () => {
    expect(first('인터넷뱅킹 2026-118', 100)).toEqual({
      clientId: 'hanbit',
      reason: 'reference',
      confidence: 'high',
    });
    expect(first('IBG INVOICE 2231', 600)).toMatchObject({ clientId: 'faiz', confidence: 'high' });
    expect(first('IBG INV NO. 2231', 600)).toMatchObject({ clientId: 'faiz', confidence: 'high' });
    // Four digits alone may be anything: the charge is suggested, not certain.
    expect(first('IBG TRANSFER 2231', 600)).toMatchObject({
      clientId: 'faiz',
      reason: 'reference',
      confidence: 'medium',
    });
    expect(first('청구-2026-014,052', 500)).toEqual({
      clientId: 'hanbit',
      reason: 'reference',
      confidence: 'high',
    });
    expect(first('IBG INV-2210/2214', 900)).toMatchObject({ clientId: 'maju', confidence: 'high' });
    // A date is not a series of references.
    expect(written(line('PAID 2026/01/18', 100))).toEqual([
      { clientId: 'hanbit', reason: 'amount', confidence: 'medium' },
    ]);
  });
});

describe('buildMatcher on a transfer paying several charges', () => {
  const several = buildMatcher({
    clients: [
      { id: 'a', firstName: 'Ahmad Faiz', lastName: 'Rahman', balance: 0 },
      { id: 'b', firstName: 'Mei Ling', lastName: 'Wong', balance: 0 },
    ],
    openItems: [
      { clientId: 'a', openAmount: 100, reference: '' },
      { clientId: 'a', openAmount: 250, reference: '' },
      { clientId: 'a', openAmount: 400, reference: '' },
      { clientId: 'b', openAmount: 700, reference: '' },
      { clientId: 'b', openAmount: 50, reference: '' },
      { clientId: 'b', openAmount: 50, reference: '' },
    ],
    rules: [],
  });

  it('suggests, at medium, the one client two or three of whose charges add up to the amount', () => {
    // 100 + 250: only Rahman's charges add up to it.
    expect(several(line('IBG TRANSFER', 350))).toEqual([
      { clientId: 'a', reason: 'amount', confidence: 'medium' },
    ]);
    // 100 + 250 + 400 and 700 + 50: either client, unsure.
    expect(several(line('IBG TRANSFER', 750)).map((found) => found.confidence)).toEqual([
      'low',
      'low',
    ]);
    // Two charges of one amount are two charges.
    expect(several(line('IBG TRANSFER', 100))).toMatchObject([
      { clientId: 'a', reason: 'amount', confidence: 'low' },
      { clientId: 'b', reason: 'amount', confidence: 'low' },
    ]);
    // Named and paying two of their charges: certain.
    expect(several(line('AHMAD FAIZ RAHMAN', 650))[0]).toEqual({
      clientId: 'a',
      reason: 'name',
      confidence: 'high',
    });
  });
});

describe('the charges a suggestion names (issue 57)', () => {
  const item = (clientId: string, id: number, openAmount: number, reference = '') => ({
    clientId,
    id,
    openAmount,
    reference,
    date: `2026-01-${String(id).padStart(2, '0')}`,
    note: '',
  });
  const named = buildMatcher({
    clients: [
      { id: 'a', firstName: 'Ahmad Faiz', lastName: 'Rahman', balance: 1_050 },
      { id: 'b', firstName: 'Mei Ling', lastName: 'Wong', balance: 1_200 },
    ],
    openItems: [
      item('a', 1, 100, 'INV-2210'),
      item('a', 2, 250, 'INV-2214'),
      item('a', 3, 400),
      item('a', 4, 300),
      item('b', 5, 500),
      item('b', 6, 500),
      item('b', 7, 200),
    ],
    rules: [],
  });
  const paysOf = (description: string, amount: number) =>
    named(line(description, amount))[0]?.pays?.map((charge) => charge.entryId) ?? [];

  it('names the charges the text refers to when they add up to the amount', () => {
    expect(paysOf('INV-2210/2214', 350)).toEqual([1, 2]);
    // One reference that is not the whole amount: named by the amount, 100 + 250 + 400 alone.
    expect(paysOf('INV-2210 AHMAD FAIZ RAHMAN', 750)).toEqual([1, 2, 3]);
  });

  it('names the charge of the amount, then the one pair or triple that adds up to it', () => {
    expect(paysOf('AHMAD FAIZ RAHMAN', 400)).toEqual([3]);
    // 100 + 250 + 300 or 250 + 400: two ways, so none named; the payment settles oldest first.
    expect(paysOf('AHMAD FAIZ RAHMAN', 650)).toEqual([]);
    expect(paysOf('AHMAD FAIZ RAHMAN', 950)).toEqual([2, 3, 4]);
    // All four of them: more than three charges are not tried together.
    expect(paysOf('AHMAD FAIZ RAHMAN', 1_050)).toEqual([]);
    // Of two charges of one amount, the older; 500 + 200 is 5 + 7 or 6 + 7: none.
    expect(paysOf('MEI LING WONG', 500)).toEqual([5]);
    expect(paysOf('MEI LING WONG', 700)).toEqual([]);
  });

  it('names every open charge of a client with three or fewer when they add up to the amount', () => {
    expect(paysOf('MEI LING WONG', 1_200)).toEqual([5, 6, 7]);
  });
});

describe('a business client by its company name', () => {
  const companies: MatchBook = {
    clients: [
      // The contact person is in first and last name; the company is its own field (issue 56).
      { id: 'saebom', firstName: '지우', lastName: '박', company: '새봄출판', balance: 330_000 },
      {
        id: 'hanbit',
        firstName: 'Mei Ling',
        lastName: 'Wong',
        company: 'Hanbit Trading',
        balance: 90_000,
      },
      { id: 'person', firstName: 'Siti', lastName: 'Aminah', balance: 90_000 },
      { id: 'none', firstName: 'Ahmad', lastName: 'Rahman', company: '', balance: 10_000 },
    ],
    openItems: [
      { clientId: 'saebom', openAmount: 330_000, reference: '' },
      { clientId: 'hanbit', openAmount: 90_000, reference: '' },
      { clientId: 'person', openAmount: 90_000, reference: '' },
    ],
    rules: [],
  };
  const matchCompanies = buildMatcher(companies);

  it('matches a line naming the company, as folded as names are', () => {
    expect(matchCompanies(line('새봄출판', 330_000))[0]).toEqual({
      clientId: 'saebom',
      reason: 'name',
      confidence: 'high',
    });
    // Upper case, spaced, with the bank's own words around it; the amount alone fits two.
    expect(matchCompanies(line('IBG HANBIT TRADING 0312', 90_000))[0]).toEqual({
      clientId: 'hanbit',
      reason: 'name',
      confidence: 'high',
    });
  });

  it('still matches the contact person by name, and a company name never names a person', () => {
    expect(matchCompanies(line('박지우', 330_000))[0]?.clientId).toBe('saebom');
    const person = matchCompanies(line('SITI AMINAH', 90_000));
    expect(person[0]).toEqual({ clientId: 'person', reason: 'name', confidence: 'high' });
  });

  it('is not high when the company is named but the amount fits nothing of it', () => {
    expect(matchCompanies(line('HANBIT TRADING', 12_345))[0]).toMatchObject({
      clientId: 'hanbit',
      reason: 'name',
      confidence: 'medium',
    });
  });
});

describe('what a confirmed line teaches', () => {
  it('learns nothing from a given name alone that other clients share', () => {
    const { learnedFrom } = buildMatchIndex({
      clients: [
        { id: 'kumar', firstName: 'Siti Nora', lastName: 'Kumar', balance: 0 },
        { id: 'wong', firstName: 'Siti Nora', lastName: 'Wong', balance: 0 },
        { id: 'devi', firstName: 'Nurul Aisyah', lastName: 'Devi', balance: 0 },
      ],
      openItems: [
        { clientId: 'kumar', openAmount: 110_950, reference: '' },
        { clientId: 'devi', openAmount: 20_000, reference: '' },
      ],
      rules: [],
    });
    // Learned, "SITI NORA" would take the next statement's line to Kumar for a payment of Wong's.
    expect(learnedFrom(line('SITI NORA', 110_950), 'kumar')).toBeNull();
    // Nobody else is Nurul Aisyah: learned.
    expect(learnedFrom(line('NURUL AISYAH', 20_000), 'devi')).toBe('amount');
  });
});
