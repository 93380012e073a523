import { describe, expect, it } from 'vitest';
import { newId } from './ids.ts';

describe('newId', () => {
  it('gives 128 bits as 22 URL-safe characters, never the same twice across many draws', () => {
    const ids = Array.from({ length: 2000 }, () => newId());
    for (const id of ids) expect(id).toMatch(/^[\w-]{22}$/);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('uses every bit: each position of the id takes many values', () => {
    const ids = Array.from({ length: 2000 }, () => newId());
    for (let position = 0; position < 21; position += 1) {
      const seen = new Set(ids.map((id) => id[position]));
      // 64 possible characters; 2,000 random draws leave none of them unseen in practice.
      expect(seen.size, `position ${position}`).toBeGreaterThan(50);
    }
  });
});
