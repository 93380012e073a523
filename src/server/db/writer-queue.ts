import { LRUCache } from 'lru-cache';

/** An owner with work waiting, in the heap of turns. */
interface Turn {
  owner: string;
  /** When the owner was last served; -1 if never (or forgotten). */
  served: number;
  /** Breaks ties between owners never served: the first to come goes first. */
  came: number;
}

/**
 * Work waiting for SQLite's one writer, taken by turns: the next unit is the first of the owner
 * with work waiting who was served least recently, so an owner with many writes waiting delays
 * another owner's write by about the one of its own that is running, not by all of them, and no
 * owner waits for ever (an owner's work keeps its order). Work that names no owner (the request
 * thread's own transactions: sign-ins, sessions) takes its turns under the key ''.
 */
export class WriterQueue<T> {
  /** Each owner's waiting work. */
  readonly #queues = new Map<string, T[]>();
  /**
   * The owners with work waiting, by when they were last served: a binary heap, so that a burst
   * from thousands of owners costs each turn a few steps, not a walk over them all.
   */
  readonly #heap: Turn[] = [];
  /**
   * When each owner was last served (a count of units taken), for the most recent `servedKept`
   * owners. Read with `peek`, so only serving an owner makes it recent: the one forgotten is the
   * one served longest ago, and it stays the oldest (one never served counts as -1).
   */
  readonly #served: LRUCache<string, number>;
  #taken = 0;
  #came = 0;
  #length = 0;

  constructor(servedKept = 1024) {
    this.#served = new LRUCache({ max: servedKept });
  }

  get length(): number {
    return this.#length;
  }

  push(owner: string, item: T): void {
    const queue = this.#queues.get(owner);
    this.#length++;
    if (queue) {
      queue.push(item);
      return;
    }
    this.#queues.set(owner, [item]);
    this.#heapPush({ owner, served: this.#served.peek(owner) ?? -1, came: this.#came++ });
  }

  /** The unit `shift` would take, left waiting. */
  peek(): T | undefined {
    const next = this.#heap[0];
    return next && this.#queues.get(next.owner)?.[0];
  }

  /** The first unit of the owner with work waiting who was served least recently. */
  shift(): T | undefined {
    const next = this.#heapPop();
    if (!next) return undefined;
    const { owner } = next;
    const queue = this.#queues.get(owner) as T[];
    const item = queue.shift() as T;
    const served = this.#taken++;
    this.#served.set(owner, served);
    if (queue.length > 0) this.#heapPush({ owner, served, came: next.came });
    else this.#queues.delete(owner);
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
    // Rare (a failure, a close): the heap is made again from the owners left.
    const left = this.#heap.splice(0).filter(({ owner }) => this.#queues.has(owner));
    for (const entry of left) this.#heapPush(entry);
    this.#length -= taken.length;
    return taken;
  }

  static #before(a: Turn, b: Turn): boolean {
    return a.served < b.served || (a.served === b.served && a.came < b.came);
  }

  #heapPush(entry: Turn): void {
    const heap = this.#heap;
    heap.push(entry);
    let at = heap.length - 1;
    while (at > 0) {
      const parent = (at - 1) >> 1;
      if (!WriterQueue.#before(entry, heap[parent] as Turn)) break;
      heap[at] = heap[parent] as Turn;
      at = parent;
    }
    heap[at] = entry;
  }

  #heapPop(): Turn | undefined {
    const heap = this.#heap;
    const top = heap[0];
    const last = heap.pop();
    if (top === undefined || last === undefined || heap.length === 0) return top;
    let at = 0;
    for (;;) {
      const left = 2 * at + 1;
      if (left >= heap.length) break;
      const right = left + 1;
      const child =
        right < heap.length && WriterQueue.#before(heap[right] as Turn, heap[left] as Turn)
          ? right
          : left;
      if (!WriterQueue.#before(heap[child] as Turn, last)) break;
      heap[at] = heap[child] as Turn;
      at = child;
    }
    heap[at] = last;
    return top;
  }
}
