/**
 * Lets at most `limit` changes of one owner run at a time, the rest waiting here in the order
 * they came, each at most `waitMs` (then it is refused, as a change that waited as long for a
 * connection would be). On PostgreSQL a change holds one of the pool's few connections for as
 * long as it runs, and an owner's changes take turns on the owner's lock anyway
 * (`lockOwnerLog`): without a gate, one owner's burst of slow changes would take every
 * connection, most of them only to wait for that lock, and every other owner's requests would
 * wait for a connection behind them. (On SQLite the writer takes owners by turns itself:
 * db/writer-queue.ts.) A change must not start another change of its owner inside it: with the
 * places taken, the inner one would wait for the outer one to end.
 */
export class OwnerConcurrencyLimit {
  readonly #limit: number;
  readonly #waitMs: number;
  readonly #refusal: () => Error;
  /** Owners with a change running; each is forgotten when its last one ends. */
  readonly #owners = new Map<string, { running: number; waiting: (() => void)[] }>();

  constructor(limit: number, waitMs: number, refusal: () => Error) {
    this.#limit = limit;
    this.#waitMs = waitMs;
    this.#refusal = refusal;
  }

  async run<T>(ownerId: string, work: () => Promise<T>): Promise<T> {
    const state = this.#owners.get(ownerId) ?? { running: 0, waiting: [] };
    this.#owners.set(ownerId, state);
    if (state.running < this.#limit) state.running++;
    // A change that ends hands its place to the next waiting one, so `running` stays as it is.
    else await this.#wait(state);
    try {
      return await work();
    } finally {
      const next = state.waiting.shift();
      if (next) next();
      else if (--state.running === 0) this.#owners.delete(ownerId);
    }
  }

  #wait(state: { waiting: (() => void)[] }): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      const admit = () => {
        clearTimeout(timer);
        resolve();
      };
      const timer = setTimeout(() => {
        state.waiting.splice(state.waiting.indexOf(admit), 1);
        reject(this.#refusal());
      }, this.#waitMs);
      state.waiting.push(admit);
    });
  }

  /** Owners with a change running or waiting here. */
  get owners(): number {
    return this.#owners.size;
  }
}
