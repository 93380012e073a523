import Papa from 'papaparse';
import { describe, expect, it } from 'vitest';
import { guessMapping, quoteProblem, toImportRow } from './csv-mapping.ts';

describe('quoteProblem', () => {
  it('names a quote that is never closed, which would swallow the rows after it', () => {
    const parsed = Papa.parse<string[]>('first,last\nAda,"Love\nGrace,Hopper\nAlan,Turing\n', {
      skipEmptyLines: 'greedy',
    });
    expect(quoteProblem(parsed.errors)).toEqual({ line: 2 });
    expect(quoteProblem(parsed.errors, 1000)).toEqual({ line: 1002 });
  });

  it('has nothing to say about a clean file, quotes and all', () => {
    const parsed = Papa.parse<string[]>(
      'first,last\n"Ada, Countess",Lovelace\n"Grace ""Amazing""",Hopper\n',
      {
        skipEmptyLines: 'greedy',
      },
    );
    expect(parsed.data).toHaveLength(3);
    expect(quoteProblem(parsed.errors)).toBeNull();
  });
});

describe('an opening balance from a CSV line', () => {
  const header = [
    'First name',
    'Last name',
    'Email',
    'Phone',
    'Balance',
    'Currency',
    'As of',
    'Due date',
    'Reference',
  ];

  it('finds the optional date, due date and reference columns by their names', () => {
    expect(guessMapping(header)).toMatchObject({
      balance: 4,
      openingDate: 6,
      openingDueDate: 7,
      openingReference: 8,
    });
    // A file without them maps them to nothing.
    expect(guessMapping(header.slice(0, 6))).toMatchObject({
      openingDate: null,
      openingDueDate: null,
      openingReference: null,
    });
  });

  it('sends them when a line has them and leaves them out when the cells are empty', () => {
    const mapping = guessMapping(header);
    const line = ['김', '민', 'min@example.com', '010-1234-5678', '370,000', 'KRW'];
    expect(toImportRow([...line, '2026-01-31', '2026-03-02', 'INV-7'], mapping).row).toEqual({
      firstName: '김',
      lastName: '민',
      email: 'min@example.com',
      phone: '010-1234-5678',
      currency: 'KRW',
      balance: 370_000,
      openingDate: '2026-01-31',
      openingDueDate: '2026-03-02',
      openingReference: 'INV-7',
    });
    const bare = toImportRow([...line, '', ' ', ''], mapping).row;
    expect(Object.keys(bare)).not.toContain('openingDate');
    expect(Object.keys(bare)).not.toContain('openingDueDate');
    expect(Object.keys(bare)).not.toContain('openingReference');
  });
});

describe("a business client's columns", () => {
  // As "Export CSV" writes them: SPEC's six, then the business columns.
  const header = [
    'First name',
    'Last name',
    'Email',
    'Phone',
    'Balance',
    'Currency',
    'Company',
    'Address line 1',
    'Address line 2',
    'City',
    'Postcode',
    'Country',
    'Tax ID',
    'Notes',
  ];

  it('finds each by its name, the second "Address line" as line 2', () => {
    expect(guessMapping(header)).toMatchObject({
      company: 6,
      addressLine1: 7,
      addressLine2: 8,
      city: 9,
      postcode: 10,
      country: 11,
      taxId: 12,
      notes: 13,
    });
  });

  it('reads them into the row, and leaves out the empty ones', () => {
    const cells = [
      'Mei Ling',
      'Wong',
      'ap@hanbit.example',
      "'+60 3 2123 4567",
      '1500.00',
      'RM',
      'Hanbit Trading Sdn Bhd',
      'Lot 5, Jalan Ampang',
      '',
      'Kuala Lumpur',
      '50450',
      'Malaysia',
      'C2584563202',
      'Pays by cheque.\nCall first.',
    ];
    const { row } = toImportRow(cells, guessMapping(header));
    expect(row).toEqual({
      firstName: 'Mei Ling',
      lastName: 'Wong',
      email: 'ap@hanbit.example',
      phone: '+60 3 2123 4567',
      currency: 'MYR',
      balance: 150_000,
      company: 'Hanbit Trading Sdn Bhd',
      addressLine1: 'Lot 5, Jalan Ampang',
      city: 'Kuala Lumpur',
      postcode: '50450',
      country: 'Malaysia',
      taxId: 'C2584563202',
      notes: 'Pays by cheque.\nCall first.',
    });
  });

  it('imports a file made before them as people, as it did', () => {
    const old = header.slice(0, 6);
    const mapping = guessMapping(old);
    expect(mapping).toMatchObject({ company: null, addressLine1: null, notes: null });
    const { row } = toImportRow(
      ['Ada', 'Lovelace', 'ada@example.com', '5551234567', '0', 'USD'],
      mapping,
    );
    expect(Object.keys(row)).toEqual([
      'firstName',
      'lastName',
      'email',
      'phone',
      'currency',
      'balance',
    ]);
  });
});
