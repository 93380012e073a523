import { LRUCache } from 'lru-cache';

/**
 * Values computed from an owner's data, each kept with the stamp of the data it was computed
 * from: the owner's latest event id. Every change an owner can see (a client added, changed,
 * deleted or imported, new settings) appends to the owner's log in the same transaction, so a
 * value is still right exactly while the owner's latest event id is the one it was stored with.
 * Reading that id is one step along an index, on any instance, so the cache stays correct when
 * several instances share one PostgreSQL database.
 *
 * A value is stored under the stamp read *before* it was computed: it reflects that state or a
 * newer one, and is served only while the stamp is unchanged, so nothing older than the stamp
 * is ever served. Bounds and eviction (least recently used first) are lru-cache's.
 */
export class StampedCache<Value> {
  readonly #entries: LRUCache<string, { stamp: number; value: Value }>;

  constructor(options: {
    maxEntries: number;
    maxSize?: number;
    sizeOf?: (value: Value) => number;
  }) {
    const { maxEntries, maxSize, sizeOf } = options;
    this.#entries = new LRUCache({
      max: maxEntries,
      ...(maxSize !== undefined && sizeOf
        ? { maxSize, sizeCalculation: (entry) => Math.max(1, sizeOf(entry.value)) }
        : {}),
    });
  }

  get(key: string, stamp: number): Value | undefined {
    const entry = this.#entries.get(key);
    if (!entry) return undefined;
    if (entry.stamp === stamp) return entry.value;
    // A stale entry is dropped on sight: its stamp will never come back.
    this.#entries.delete(key);
    return undefined;
  }

  set(key: string, stamp: number, value: Value): void {
    this.#entries.set(key, { stamp, value });
  }

  get entries(): number {
    return this.#entries.size;
  }
}
