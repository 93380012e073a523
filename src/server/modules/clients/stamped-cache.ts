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
 * is ever served.
 */
export class StampedCache<Value> {
  readonly #entries = new Map<string, { stamp: number; value: Value; size: number }>();
  readonly #maxEntries: number;
  readonly #maxSize: number;
  readonly #sizeOf: (value: Value) => number;
  #size = 0;

  constructor(options: {
    maxEntries: number;
    maxSize?: number;
    sizeOf?: (value: Value) => number;
  }) {
    this.#maxEntries = options.maxEntries;
    this.#maxSize = options.maxSize ?? Number.POSITIVE_INFINITY;
    this.#sizeOf = options.sizeOf ?? (() => 1);
  }

  get(key: string, stamp: number): Value | undefined {
    const entry = this.#entries.get(key);
    if (!entry) return undefined;
    this.#remove(key);
    if (entry.stamp !== stamp) return undefined;
    // Most recently used last: the first entry is the one to drop when full.
    this.#entries.set(key, entry);
    this.#size += entry.size;
    return entry.value;
  }

  set(key: string, stamp: number, value: Value): void {
    const size = this.#sizeOf(value);
    this.#remove(key);
    if (size > this.#maxSize) return;
    this.#entries.set(key, { stamp, value, size });
    this.#size += size;
    while (this.#entries.size > this.#maxEntries || this.#size > this.#maxSize) {
      const oldest = this.#entries.keys().next().value;
      if (oldest === undefined) break;
      this.#remove(oldest);
    }
  }

  get entries(): number {
    return this.#entries.size;
  }

  #remove(key: string): void {
    const entry = this.#entries.get(key);
    if (!entry) return;
    this.#entries.delete(key);
    this.#size -= entry.size;
  }
}
