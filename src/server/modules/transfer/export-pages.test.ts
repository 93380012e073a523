import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { KyselyPlugin } from 'kysely';
import { buildTestApp, type TestApp } from '../../../../tests/app.ts';
import { joinAs } from '../../../../tests/auth.ts';
import { buildClient } from '../../../../tests/factories.ts';
import type { ClientList } from '../../../shared/schemas/clients.ts';
import { injectOk } from '../../../../tests/http.ts';
import { readOwnerEntries } from '../ledger/ledger.queries.ts';
import { readAllEvents } from '../events/events.queries.ts';
import { itemsPerChunk } from './export-stream.ts';

let testApp: TestApp;
let bookId: string;
const clientCount = 250;
// One client has more entries than a page, all on one day.
const charges = 150;
const entryCount = clientCount + charges;
beforeAll(async () => {
  testApp = await buildTestApp();
  const owner = await joinAs(testApp.app);
  bookId = owner.userId;
  // Each imported client with a balance brings an opening entry and an event.
  await injectOk(testApp.app, 'POST', '/api/clients/import', owner.cookie, {
    rows: Array.from({ length: clientCount }, (_unused, index) =>
      buildClient({ firstName: `Paged${index}`, balance: 100 + index }),
    ),
    dryRun: false,
    skipDuplicates: false,
  });
  const list = await injectOk(testApp.app, 'GET', '/api/clients?limit=1', owner.cookie);
  const first = list.json<ClientList>().clients[0]!.id;
  for (let index = 0; index < charges; index++) {
    await injectOk(testApp.app, 'POST', `/api/clients/${first}/entries`, owner.cookie, {
      kind: 'charge',
      amount: 1,
      date: '2026-11-02',
    });
  }
});
afterAll(async () => {
  await testApp.close();
});

/** The rows each query answered, in order. */
function rowsPerQuery() {
  const counts: number[] = [];
  const plugin: KyselyPlugin = {
    transformQuery: (args) => args.node,
    transformResult: async ({ result }) => {
      counts.push(result.rows.length);
      return result;
    },
  };
  return { db: testApp.app.db.kysely.withPlugin(plugin), counts };
}

async function readAll<T>(items: AsyncIterable<T>): Promise<T[]> {
  const read: T[] = [];
  for await (const item of items) read.push(item);
  return read;
}

// A page is held while the export turns it into text, a chunk per turn of the event loop. Rows
// kept across those turns outlive V8's collections of young objects, and V8 then grows its young
// generation: with pages of 1,000 the JSON export of 1,000,000 clients took 106-159 MB more
// memory, with pages of a chunk 42 MB (docs/performance.md).
describe('what an export reads at a time', () => {
  it('reads the ledger a chunk’s worth of entries per query, and all of it', async () => {
    const { db, counts } = rowsPerQuery();
    const entries = await readAll(readOwnerEntries(db, bookId));
    expect(entries).toHaveLength(entryCount);
    expect(new Set(entries.map((entry) => entry.id)).size).toBe(entryCount);
    // Client by client in name order, each in date order (then in the order they were entered).
    const order = (entry: (typeof entries)[number]) =>
      [entry.nameKey, entry.clientId, entry.date, String(entry.id).padStart(12, '0')].join(
        '\u0000',
      );
    const keys = entries.map(order);
    expect(keys).toEqual([...keys].sort());
    expect(counts.length).toBeGreaterThanOrEqual(Math.ceil(entryCount / itemsPerChunk));
    expect(Math.max(...counts)).toBeLessThanOrEqual(itemsPerChunk);
  });

  it('reads the history a chunk’s worth of events per query, and all of it', async () => {
    const { db, counts } = rowsPerQuery();
    const events = await readAll(readAllEvents(db, bookId));
    // Each import row and each charge is an event.
    expect(events).toHaveLength(entryCount);
    const ids = events.map((event) => event.id);
    expect(ids).toEqual([...ids].sort((a, b) => a - b));
    expect(counts.length).toBeGreaterThanOrEqual(Math.ceil(entryCount / itemsPerChunk));
    expect(Math.max(...counts)).toBeLessThanOrEqual(itemsPerChunk);
  });
});
