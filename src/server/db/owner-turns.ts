/**
 * Work waiting for SQLite's one writer, taken by turns: the next unit is the first of the owner
 * with work waiting who was served least recently, so an owner with many writes waiting delays
 * another owner's write by about the one of its own that is running, not by all of them, and no
 * owner waits for ever (an owner's work keeps its order). Work that names no owner (the request
 * thread's own transactions: sign-ins, sessions) takes its turns under the key ''.
 */
export class OwnerTurns<T> {
  /** Each owner's waiting work. */
  readonly #queues = new Map<string, T[]>();
  /**
   * When each owner was last served (a count of units taken), for the most recent
   * `servedKept` owners. The Map is kept in the order they were served, so the one forgotten is
   * the one served longest ago, and it stays the oldest: one never served counts as -1.
   */
  readonly #served = new Map<string, number>();
  readonly #servedKept: number;
  #taken = 0;
  #length = 0;

  constructor(servedKept = 1024) {
    this.#servedKept = servedKept;
  }

  get length(): number {
    return this.#length;
  }

  push(owner: string, item: T): void {
    const queue = this.#queues.get(owner);
    if (queue) queue.push(item);
    else this.#queues.set(owner, [item]);
    this.#length++;
  }

  /** The unit `shift` would take, left waiting. */
  peek(): T | undefined {
    const owner = this.#next();
    return owner === undefined ? undefined : this.#queues.get(owner)?.[0];
  }

  /** The first unit of the owner with work waiting who was served least recently. */
  shift(): T | undefined {
    const owner = this.#next();
    if (owner === undefined) return undefined;
    const queue = this.#queues.get(owner) as T[];
    const item = queue.shift() as T;
    if (queue.length === 0) this.#queues.delete(owner);
    this.#served.delete(owner);
    this.#served.set(owner, this.#taken++);
    if (this.#served.size > this.#servedKept) {
      for (const oldest of this.#served.keys()) {
        this.#served.delete(oldest);
        break;
      }
    }
    this.#length--;
    return item;
  }

  /** Takes every waiting unit that passes `test` out of the turns, in no particular order. */
  takeWhere(test: (item: T) => boolean): T[] {
    const taken: T[] = [];
    for (const [owner, queue] of this.#queues) {
      const kept: T[] = [];
      for (const item of queue) (test(item) ? taken : kept).push(item);
      if (kept.length > 0) this.#queues.set(owner, kept);
      else this.#queues.delete(owner);
    }
    this.#length -= taken.length;
    return taken;
  }

  /** The owner to serve next: few owners wait at once, so a walk over them is cheap. */
  #next(): string | undefined {
    let next: string | undefined;
    let nextServed = Infinity;
    // Among owners never served (or long forgotten), the first to come goes first.
    for (const owner of this.#queues.keys()) {
      const served = this.#served.get(owner) ?? -1;
      if (served < nextServed) {
        next = owner;
        nextServed = served;
      }
    }
    return next;
  }
}
