/**
 * Work waiting for SQLite's one writer, taken by turns: one unit from each owner with work
 * waiting, then one from the next, so that an owner with many writes waiting delays another
 * owner's write by about one of its own, not by all of them (an owner's work keeps its order).
 * Work that names no owner (the request thread's own transactions: sign-ins, sessions) takes its
 * turns under the key ''.
 */
export class OwnerTurns<T> {
  /** Each owner's waiting work; a Map keeps the order its keys were set in, which is the turns'. */
  readonly #queues = new Map<string, T[]>();
  #length = 0;

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
    for (const queue of this.#queues.values()) return queue[0];
    return undefined;
  }

  /** The next owner's first unit; that owner goes to the back of the turns if it has more. */
  shift(): T | undefined {
    for (const [owner, queue] of this.#queues) {
      const item = queue.shift() as T;
      this.#queues.delete(owner);
      if (queue.length > 0) this.#queues.set(owner, queue);
      this.#length--;
      return item;
    }
    return undefined;
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
}
