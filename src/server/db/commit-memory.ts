/**
 * The tables a kept session is read from: any write to them forgets every kept session. The
 * request thread watches its own writes to them; the writer refuses them from a command, whose
 * statements it does not see.
 */
export const keptSessionTables = ['sessions', 'users'] as const;

/**
 * Values read from the database and kept in this process until a commit may have changed them:
 * the session behind a cookie, the id of an owner's latest event. Only on SQLite, where one
 * process holds the file and every commit passes through it (PostgreSQL's other instances commit
 * where this one cannot see). See docs/decisions/015-reads-kept-between-commits.md.
 *
 * A read keeps its value only if nothing was forgotten while it ran, so a value read before a
 * commit never outlives that commit's `forget`. Every value also ages out after `maxAgeMs`, for
 * a change made to the file from outside (by hand, with the sqlite3 shell).
 */
export class CommitMemory<V> {
  readonly #values = new Map<string, { value: V; keptAt: number }>();
  readonly #maxAgeMs: number;
  readonly #maxEntries: number;
  /** Counts every forget: a read that saw it change while it ran keeps nothing. */
  #generation = 0;

  constructor({ maxAgeMs, maxEntries }: { maxAgeMs: number; maxEntries: number }) {
    this.#maxAgeMs = maxAgeMs;
    this.#maxEntries = maxEntries;
  }

  /**
   * The value kept for `key`, else what `read` gives (kept for next time unless it is null or
   * undefined: what is not there is asked again, so unknown keys cannot fill the memory).
   */
  async read<R extends V | null | undefined>(key: string, read: () => Promise<R>): Promise<R> {
    const kept = this.#values.get(key);
    if (kept) {
      if (performance.now() - kept.keptAt <= this.#maxAgeMs) return kept.value as R;
      this.#values.delete(key);
    }
    const generation = this.#generation;
    // Aged from when it was asked for: the value is at least as old as that.
    const askedAt = performance.now();
    const value = await read();
    if (value !== null && value !== undefined && generation === this.#generation) {
      // Full: start again rather than track which values are used least.
      if (this.#values.size >= this.#maxEntries) this.#values.clear();
      this.#values.set(key, { value, keptAt: askedAt });
    }
    return value;
  }

  /** After a commit that may have changed the value of `key`. */
  forget(key: string): void {
    this.#generation += 1;
    this.#values.delete(key);
  }

  /** After a commit that may have changed any of the values. */
  forgetAll(): void {
    this.#generation += 1;
    this.#values.clear();
  }

  get size(): number {
    return this.#values.size;
  }
}
