/**
 * Lets at most `limit` changes of one owner run at a time, the rest waiting here in the order
 * they came. On PostgreSQL a change holds one of the pool's few connections for as long as it
 * runs, and an owner's changes take turns on the owner's lock anyway (`lockOwnerLog`): without a
 * gate, one owner's burst of slow changes would take every connection, most of them only to
 * wait for that lock, and every other owner's requests would wait for a connection behind them.
 * (On SQLite the writer takes owners by turns itself: db/owner-turns.ts.)
 */
export class OwnerGate {
  readonly #limit: number;
  /** Owners with a change running; each is forgotten when its last one ends. */
  readonly #owners = new Map<string, { running: number; waiting: (() => void)[] }>();

  constructor(limit: number) {
    this.#limit = limit;
  }

  async run<T>(ownerId: string, work: () => Promise<T>): Promise<T> {
    let owner = this.#owners.get(ownerId);
    if (!owner) {
      owner = { running: 0, waiting: [] };
      this.#owners.set(ownerId, owner);
    }
    const state = owner;
    if (state.running < this.#limit) state.running++;
    // A change that ends hands its place to the next waiting one, so `running` stays as it is.
    else await new Promise<void>((resolve) => state.waiting.push(resolve));
    try {
      return await work();
    } finally {
      const next = state.waiting.shift();
      if (next) next();
      else if (--state.running === 0) this.#owners.delete(ownerId);
    }
  }

  /** Owners with a change running or waiting here. */
  get owners(): number {
    return this.#owners.size;
  }
}
