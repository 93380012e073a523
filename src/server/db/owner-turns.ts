/**
 * Work waiting for SQLite's one writer, taken by turns: the next unit is the first of the owner
 * served least recently, so an owner with many writes waiting delays another owner's write by
 * about one of its own, not by all of them, and an owner who had nothing waiting goes first (an
 * owner's work keeps its order). Work that names no owner (the request thread's own
 * transactions: sign-ins, sessions) takes its turns under the key ''.
 */
export class OwnerTurns<T> {
  /**
   * Each owner with work waiting, and when it was last served (a count of units taken; an owner
   * is forgotten once its work is all taken, and comes back as never served). A Map keeps the
   * order its keys were set in: among owners never served, the first to come goes first.
   */
  readonly #queues = new Map<string, { items: T[]; served: number }>();
  #taken = 0;
  #length = 0;

  get length(): number {
    return this.#length;
  }

  push(owner: string, item: T): void {
    const queue = this.#queues.get(owner);
    if (queue) queue.items.push(item);
    else this.#queues.set(owner, { items: [item], served: -1 });
    this.#length++;
  }

  /** The unit `shift` would take, left waiting. */
  peek(): T | undefined {
    return this.#next()?.[1].items[0];
  }

  /** The first unit of the owner served least recently. */
  shift(): T | undefined {
    const next = this.#next();
    if (!next) return undefined;
    const [owner, queue] = next;
    const item = queue.items.shift() as T;
    if (queue.items.length === 0) this.#queues.delete(owner);
    queue.served = this.#taken++;
    this.#length--;
    return item;
  }

  /** Takes every waiting unit that passes `test` out of the turns, in no particular order. */
  takeWhere(test: (item: T) => boolean): T[] {
    const taken: T[] = [];
    for (const [owner, queue] of this.#queues) {
      const kept: T[] = [];
      for (const item of queue.items) (test(item) ? taken : kept).push(item);
      queue.items = kept;
      if (kept.length === 0) this.#queues.delete(owner);
    }
    this.#length -= taken.length;
    return taken;
  }

  /** The owner served least recently: few owners wait at once, so a walk over them is cheap. */
  #next(): [string, { items: T[]; served: number }] | undefined {
    let next: [string, { items: T[]; served: number }] | undefined;
    for (const entry of this.#queues) if (!next || entry[1].served < next[1].served) next = entry;
    return next;
  }
}
