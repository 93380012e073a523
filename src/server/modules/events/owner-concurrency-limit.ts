/**
 * Without it, one owner's burst would take every pool connection only to wait on the owner's lock.
 * A change must not start another of its owner's inside it: the inner one would wait for ever.
 */
export class OwnerConcurrencyLimit {
  readonly #limit: number;
  readonly #waitMs: number;
  readonly #refusal: () => Error;
  readonly #owners = new Map<string, { running: number; waiting: (() => void)[] }>();

  constructor(limit: number, waitMs: number, refusal: () => Error) {
    this.#limit = limit;
    this.#waitMs = waitMs;
    this.#refusal = refusal;
  }

  async run<T>(bookId: string, work: () => Promise<T>): Promise<T> {
    const state = this.#owners.get(bookId) ?? { running: 0, waiting: [] };
    this.#owners.set(bookId, state);
    if (state.running < this.#limit) state.running++;
    // A change that ends hands its place to the next waiting one, so `running` stays as it is.
    else await this.#wait(state);
    try {
      return await work();
    } finally {
      const next = state.waiting.shift();
      if (next) next();
      else if (--state.running === 0) this.#owners.delete(bookId);
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

  get owners(): number {
    return this.#owners.size;
  }
}
