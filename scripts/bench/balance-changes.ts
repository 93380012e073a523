// The balance-change load, one definition for every server it is run against: Balance, and
// Balance as it was (earlier-build.ts).
import type { TrackedClient } from './live.ts';
import type { LoadRequest } from './load.ts';

/** A first-in, first-out queue that stays O(1) over tens of thousands of items. */
export class Fifo<T> {
  #items: T[] = [];
  #head = 0;
  constructor(items: T[] = []) {
    this.#items = items;
  }
  push(item: T): void {
    this.#items.push(item);
  }
  shift(): T | undefined {
    if (this.#head >= this.#items.length) return undefined;
    const item = this.#items[this.#head++];
    if (this.#head > 4096 && this.#head * 2 > this.#items.length) {
      this.#items = this.#items.slice(this.#head);
      this.#head = 0;
    }
    return item;
  }
  get size(): number {
    return this.#items.length - this.#head;
  }
}

/** A well-formed id that is nobody's client: what the write runs send if their pool runs dry. */
export const noSuchId = 'benchbenchbenchbenchAA';

/**
 * `PATCH /api/clients/:id/balance` over the queue's clients, each sent at the version it last
 * answered, so none is refused as stale (a 409 would count as non-2xx). A client goes back in
 * line only once its answer is known. The count of changes runs on across calls (the warm-up,
 * then the measured run), so each asks for a balance other than the one before.
 */
export function balanceChanges(
  queue: Fifo<TrackedClient>,
  headers: Record<string, string>,
): () => LoadRequest[] {
  let changed = 0;
  return () => [
    {
      method: 'PATCH',
      headers,
      setupRequest: (request) => {
        const client = queue.shift() ?? { id: noSuchId, version: 1 };
        changed++;
        return {
          ...request,
          path: `/api/clients/${client.id}/balance`,
          body: JSON.stringify({ balance: (changed % 100_000) - 20_000, version: client.version }),
        };
      },
      onResponse: (status, body) => {
        if (status !== 200) return;
        const client = JSON.parse(body) as TrackedClient;
        queue.push({ id: client.id, version: client.version });
      },
    },
  ];
}
