import { describe, expect, it } from 'vitest';
import { clientFormSchema } from './schemas/clients.ts';
import {
  clientName,
  displayName,
  foldText,
  isSyllabicName,
  nameSortKey,
  statementRecipient,
} from './names.ts';

describe('displayName', () => {
  it('shows a Korean name family name first, without a space', () => {
    expect(displayName({ firstName: '서연', lastName: '김' })).toBe('김서연');
    expect(displayName({ firstName: '서연', lastName: '남궁' })).toBe('남궁서연');
  });

  it('shows other names given name first', () => {
    expect(displayName({ firstName: 'Ada', lastName: 'Lovelace' })).toBe('Ada Lovelace');
    expect(displayName({ firstName: 'Seoyeon', lastName: '김' })).toBe('Seoyeon 김');
    expect(displayName({ firstName: '明', lastName: '李' })).toBe('明 李');
  });
});

describe('nameSortKey', () => {
  it('takes accents and case off, and makes compatibility forms plain', () => {
    expect(nameSortKey({ firstName: 'Émilie', lastName: 'DUBOIS' })).toBe('emilie dubois');
    expect(nameSortKey({ firstName: 'Łukasz', lastName: 'Ångström' })).toBe('lukasz angstrom');
    expect(foldText('ﬁona Ｗei Straße Øre')).toBe('fiona wei strasse ore');
  });

  it('keeps Hangul and Kana whole, a Korean name family name first', () => {
    expect(nameSortKey({ firstName: '민준', lastName: '김' })).toBe('김민준');
    expect(foldText('ガ')).toBe('ガ');
  });
});

describe('isSyllabicName', () => {
  it('knows Hangul, Han and Kana, and nothing else', () => {
    for (const text of ['김', '李', 'の', 'ミ', '남궁']) expect(isSyllabicName(text)).toBe(true);
    for (const text of ['A', 'Ж', 'ά', '김A', '']) expect(isSyllabicName(text)).toBe(false);
  });
});

describe('the client form', () => {
  const form = {
    firstName: 'Ada',
    lastName: 'Lovelace',
    email: 'ada@example.com',
    phone: '0123456789',
    balance: '',
    currency: 'USD' as const,
  };
  const messagesFor = (values: Partial<typeof form>) => {
    const result = clientFormSchema.safeParse({ ...form, ...values });
    return result.success ? [] : result.error.issues.map((issue) => issue.message);
  };

  it('takes a one-character Korean, Chinese or Japanese name part', () => {
    expect(messagesFor({ firstName: '민', lastName: '이' })).toEqual([]);
    expect(messagesFor({ firstName: '明', lastName: '李' })).toEqual([]);
    expect(messagesFor({ firstName: 'ミ', lastName: '森' })).toEqual([]);
  });

  it('keeps the minimum and its message for a Latin name part', () => {
    expect(messagesFor({ lastName: 'L' })).toEqual(['must be at least 2 characters']);
  });
});

describe('a business client', () => {
  it('sorts by its company, then its contact person; a person as before', () => {
    expect(nameSortKey({ firstName: 'Ada', lastName: 'Lovelace' })).toBe('ada lovelace');
    expect(nameSortKey({ firstName: 'Ada', lastName: 'Lovelace', company: '  ' })).toBe(
      'ada lovelace',
    );
    const acme = nameSortKey({ firstName: 'Zed', lastName: 'Adams', company: 'Acme' });
    const acmeTrading = nameSortKey({
      firstName: 'Amy',
      lastName: 'Brown',
      company: 'Acme Trading',
    });
    expect(acme).toBe('acme\u0001zed adams');
    expect(acme < acmeTrading).toBe(true);
    expect(nameSortKey({ firstName: '지우', lastName: '박', company: 'Édition Saebom' })).toBe(
      'edition saebom\u0001박지우',
    );
  });

  it('is addressed as company, contact person, address lines and tax id', () => {
    const blank = {
      addressLine1: '',
      addressLine2: '',
      city: '',
      postcode: '',
      country: '',
      taxId: '',
    };
    expect(
      statementRecipient({ firstName: 'Ada', lastName: 'Lovelace', company: '', ...blank }),
    ).toEqual({
      name: 'Ada Lovelace',
      contact: null,
      address: [],
      taxId: null,
    });
    expect(
      statementRecipient({
        firstName: '지우',
        lastName: '박',
        company: '새봄출판',
        ...blank,
        addressLine1: '테헤란로 152',
        city: '서울',
        postcode: '06236',
        taxId: '123-45-67890',
      }),
    ).toEqual({
      name: '새봄출판',
      contact: '박지우',
      address: ['테헤란로 152', '06236 서울'],
      taxId: '123-45-67890',
    });
    expect(clientName({ firstName: '지우', lastName: '박', company: '새봄출판' })).toBe('새봄출판');
  });
});
