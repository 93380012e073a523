import { describe, expect, it } from 'vitest';
import { StampedCache } from './stamped-cache.ts';

describe('StampedCache', () => {
  it('gives a value back only for the stamp it was stored with', () => {
    const cache = new StampedCache<string>({ maxEntries: 10 });
    cache.set('owner-a', 7, 'page at 7');
    expect(cache.get('owner-a', 7)).toBe('page at 7');
    expect(cache.get('owner-a', 8)).toBeUndefined();
    // A stale entry is dropped on sight, not kept for the old stamp.
    expect(cache.get('owner-a', 7)).toBeUndefined();
    expect(cache.get('owner-b', 7)).toBeUndefined();
  });

  it('drops the least recently used entry beyond its number of entries', () => {
    const cache = new StampedCache<number>({ maxEntries: 2 });
    cache.set('a', 1, 1);
    cache.set('b', 1, 2);
    expect(cache.get('a', 1)).toBe(1);
    cache.set('c', 1, 3);
    expect(cache.get('b', 1)).toBeUndefined();
    expect(cache.get('a', 1)).toBe(1);
    expect(cache.get('c', 1)).toBe(3);
    expect(cache.entries).toBe(2);
  });

  it('keeps its total size within bounds and refuses a value larger than all of it', () => {
    const cache = new StampedCache<string>({
      maxEntries: 100,
      maxSize: 10,
      sizeOf: (text) => text.length,
    });
    cache.set('a', 1, 'aaaa');
    cache.set('b', 1, 'bbbb');
    cache.set('c', 1, 'cccc');
    expect(cache.get('a', 1)).toBeUndefined();
    expect([cache.get('b', 1), cache.get('c', 1)]).toEqual(['bbbb', 'cccc']);
    cache.set('huge', 1, 'x'.repeat(11));
    expect(cache.get('huge', 1)).toBeUndefined();
    expect(cache.entries).toBe(2);
    // Replacing an entry counts only its new size.
    cache.set('b', 2, 'bb');
    cache.set('d', 1, 'dddd');
    expect([cache.get('b', 2), cache.get('c', 1), cache.get('d', 1)]).toEqual([
      'bb',
      'cccc',
      'dddd',
    ]);
  });
});
