import { LRUCache } from 'lru-cache';

interface Turn {
  owner: string;
  /** -1: never served (or forgotten). */
  served: number;
  came: number;
}

/** Least recently served owner first, so one owner's many writes cannot hold up another's (decision 008). */
export class WriterQueue<T> {
  readonly #queues = new Map<string, T[]>();
  /** A heap: a burst from thousands of owners costs a turn a few steps, not a walk over them all. */
  readonly #heap: Turn[] = [];
  /** Read with `peek`, so only serving makes an owner recent, and the one forgotten stays oldest. */
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

  peek(): T | undefined {
    const next = this.#heap[0];
    return next && this.#queues.get(next.owner)?.[0];
  }

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
