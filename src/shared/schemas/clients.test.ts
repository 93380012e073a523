import { describe, expect, it } from 'vitest';
import { z } from 'zod/mini';
import { clientFormSchema, noControlCharacters } from './clients.ts';

const name = z.string().check(noControlCharacters);

describe('noControlCharacters', () => {
  it.each(['\u0000', '\u001b', '\u007f', '\u202a', '\u202d', '\u202e', '\u2066', '\u2069'])(
    'refuses U+%s in a name',
    (character) => {
      expect(name.safeParse(`Ada${character}gnirts`).success).toBe(false);
    },
  );

  it('keeps names in any script, with plain direction marks', () => {
    for (const text of ['Ada Lovelace', 'محمد\u200f', 'דוד\u200e', '김민준', 'Zoë-Brontë']) {
      expect(name.safeParse(text).success).toBe(true);
    }
  });
});

describe('the Add form’s opening balance', () => {
  const form = {
    firstName: 'Ada',
    lastName: 'Lovelace',
    email: 'ada@example.com',
    phone: '+44 20 7946 0018',
    currency: 'USD' as const,
    balance: '120.00',
  };
  const errorsOf = (values: Record<string, string>): Record<string, string> => {
    const result = clientFormSchema.safeParse({ ...form, ...values });
    return result.success
      ? {}
      : Object.fromEntries(
          result.error.issues.map((issue) => [String(issue.path[0]), issue.message]),
        );
  };

  it('takes an optional date, a due date not before it and a short reference', () => {
    expect(errorsOf({})).toEqual({});
    expect(
      errorsOf({
        openingDate: '2026-01-31',
        openingDueDate: '2026-03-02',
        openingReference: 'B/F',
      }),
    ).toEqual({});
    expect(errorsOf({ openingDate: '2026-02-30' })).toEqual({
      openingDate: 'Enter a date as YYYY-MM-DD.',
    });
    expect(errorsOf({ openingDate: '2026-03-10', openingDueDate: '2026-03-01' })).toEqual({
      openingDueDate: 'The due date cannot be before the date of the balance.',
    });
    expect(errorsOf({ openingReference: 'x'.repeat(41) })).toEqual({
      openingReference: 'Use at most 40 characters.',
    });
  });
});
