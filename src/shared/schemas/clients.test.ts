import { describe, expect, it } from 'vitest';
import { z } from 'zod/mini';
import { noControlCharacters } from './clients.ts';

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
