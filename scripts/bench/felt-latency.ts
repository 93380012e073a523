// What one owner feels while others use the same instance (issue 41's first target): their list
// page and a payment, one after the other as a person clicks, first on a quiet server, then while
// 50 other owners each make a request a second and one more owner makes one heavy request after
// another: an import of 20,000 rows, or the statement PDF of a client with 20,000 entries. The
// target is p95 ≤ 50 ms for both, on SQLite and on PostgreSQL.
//
// Everything is seeded through the app's own API, so the same code serves both databases: the
// clients by import, the long ledger by restoring an export file made once (`longLedgerFile`).
import { setTimeout as sleep } from 'node:timers/promises';
import { importMaxRows } from '../../src/shared/schemas/clients.ts';
import { addDays, utcDay } from '../../src/shared/dates.ts';
import { importBody } from './blocking.ts';
import { percentiles, type Percentiles } from './live.ts';
import { joinOwner, seedLedgers } from './seed.ts';

type HeavyRequest = 'import' | 'pdf';

export interface FeltLatencyResult {
  database: string;
  heavy: HeavyRequest;
  otherOwners: number;
  /** Rows of each import, or entries of the PDF's statement. */
  heavySize: number;
  /** Heavy requests answered during the busy phase. */
  heavyDone: number;
  quiet: { list: Percentiles; payment: Percentiles };
  busy: { list: Percentiles; payment: Percentiles };
  /** Requests of the other owners and the heavy one that did not answer 2xx. */
  failures: number;
}

export interface FeltLatencyOptions {
  baseUrl: string;
  /** Named in the report: SQLite or PostgreSQL. */
  database: string;
  heavy: HeavyRequest;
  random: () => number;
  seconds: number;
  clients: number;
  otherOwners: number;
  importRows: number;
  /** The export file of one client with a long ledger (`longLedgerFile`), for the PDF. */
  ledgerFile: string;
  ledgerEntries: number;
}

type Owner = { cookie: string; bookId: string };

async function ok(request: Promise<Response>, what: string): Promise<Response> {
  const response = await request;
  if (!response.ok)
    throw new Error(`${what} answered ${response.status}: ${await response.text()}`);
  return response;
}

/** `count` clients for `owner`, by import (a slice of at most the import's limit at a time). */
async function importClients(baseUrl: string, owner: Owner, count: number): Promise<void> {
  for (let round = 0; round * importMaxRows < count; round++) {
    const rows = Math.min(importMaxRows, count - round * importMaxRows);
    const response = await ok(
      fetch(`${baseUrl}/api/clients/import`, {
        method: 'POST',
        headers: { cookie: owner.cookie, 'content-type': 'application/json' },
        body: importBody(rows, round),
      }),
      'seeding import',
    );
    await response.arrayBuffer();
  }
}

/** The ids of the owner's first page of clients. */
async function firstPageIds(baseUrl: string, owner: Owner): Promise<string[]> {
  const response = await ok(
    fetch(`${baseUrl}/api/clients?limit=50`, { headers: { cookie: owner.cookie } }),
    'list',
  );
  return ((await response.json()) as { clients: { id: string }[] }).clients.map(({ id }) => id);
}

/**
 * The export file (JSON) of an owner with one client of `entries` ledger entries, seeded straight
 * into the SQLite file of the server at `baseUrl` and exported through it: restored into an
 * account of any instance, it gives that account the same long ledger.
 */
export async function longLedgerFile(options: {
  baseUrl: string;
  dbFile: string;
  entries: number;
  random: () => number;
}): Promise<string> {
  const { baseUrl, dbFile, entries, random } = options;
  const owner = await joinOwner(baseUrl);
  seedLedgers({ file: dbFile, bookId: owner.bookId, clients: 1, entries, random });
  const response = await ok(
    fetch(`${baseUrl}/api/export.json`, { headers: { cookie: owner.cookie } }),
    'export',
  );
  return response.text();
}

async function timed(request: () => Promise<Response>): Promise<number> {
  const started = performance.now();
  const response = await request();
  await response.arrayBuffer();
  if (!response.ok) throw new Error(`answered ${response.status}`);
  return performance.now() - started;
}

/** The owner's list page, then a payment to one of their clients, with a person's pause between. */
async function ownerClicks(
  baseUrl: string,
  owner: Owner,
  clientIds: string[],
  until: () => boolean,
): Promise<{ list: Percentiles; payment: Percentiles }> {
  const list: number[] = [];
  const payment: number[] = [];
  let turn = 0;
  while (!until()) {
    list.push(
      await timed(() =>
        fetch(`${baseUrl}/api/clients?limit=50`, {
          headers: { cookie: owner.cookie, 'accept-encoding': 'gzip' },
        }),
      ),
    );
    const clientId = clientIds[turn++ % clientIds.length];
    payment.push(
      await timed(() =>
        fetch(`${baseUrl}/api/clients/${clientId}/entries`, {
          method: 'POST',
          headers: { cookie: owner.cookie, 'content-type': 'application/json' },
          body: JSON.stringify({ kind: 'payment', amount: 100 }),
        }),
      ),
    );
    await sleep(50);
  }
  return { list: percentiles(list), payment: percentiles(payment) };
}

/** One heavy request of the heavy owner, made ready: the next one to send, each time anew. */
async function heavyRequests(
  options: FeltLatencyOptions,
): Promise<{ next: (round: number) => Promise<Response>; size: number }> {
  const { baseUrl, heavy, importRows, ledgerFile, ledgerEntries } = options;
  const owner = await joinOwner(baseUrl);
  if (heavy === 'import') {
    return {
      size: importRows,
      next: (round) =>
        fetch(`${baseUrl}/api/clients/import`, {
          method: 'POST',
          headers: { cookie: owner.cookie, 'content-type': 'application/json' },
          body: importBody(importRows, round),
        }),
    };
  }
  const restored = await ok(
    fetch(`${baseUrl}/api/restore`, {
      method: 'POST',
      headers: { cookie: owner.cookie, 'content-type': 'application/json' },
      body: ledgerFile,
    }),
    'restoring the long ledger',
  );
  await restored.arrayBuffer();
  const [clientId] = await firstPageIds(baseUrl, owner);
  if (clientId === undefined) throw new Error('the long ledger was not restored');
  const today = utcDay();
  // seedLedgers dates its entries over the last 200 days: the period takes them all.
  const path = `/api/clients/${clientId}/statement.pdf?from=${addDays(today, -199)}&to=${today}`;
  return {
    size: ledgerEntries,
    next: () => fetch(baseUrl + path, { headers: { cookie: owner.cookie } }),
  };
}

export async function measureFeltLatency(options: FeltLatencyOptions): Promise<FeltLatencyResult> {
  const { baseUrl, database, heavy, random, seconds, clients, otherOwners } = options;
  const owner = await joinOwner(baseUrl);
  await importClients(baseUrl, owner, clients);
  const clientIds = await firstPageIds(baseUrl, owner);
  const others: Owner[] = [];
  for (let joined = 0; joined < otherOwners; joined++) {
    const other = await joinOwner(baseUrl);
    await importClients(baseUrl, other, 50);
    others.push(other);
  }
  const heavyOwner = await heavyRequests(options);

  let stopAt = performance.now() + seconds * 1000;
  const quiet = await ownerClicks(baseUrl, owner, clientIds, () => performance.now() > stopAt);

  stopAt = performance.now() + seconds * 1000;
  const running = () => performance.now() < stopAt;
  let failures = 0;
  let heavyDone = 0;
  const count = async (request: Promise<Response>) => {
    try {
      const response = await request;
      await response.arrayBuffer();
      if (!response.ok) failures++;
    } catch {
      failures++;
    }
  };
  // Each other owner: one request a second (their list), started at a random moment.
  const othersWork = others.map(async (other) => {
    await sleep(random() * 1000);
    while (running()) {
      const next = sleep(1000);
      await count(fetch(`${baseUrl}/api/clients?limit=50`, { headers: { cookie: other.cookie } }));
      await next;
    }
  });
  const heavyWork = (async () => {
    while (running()) {
      await count(heavyOwner.next(heavyDone));
      heavyDone++;
    }
  })();
  const busy = await ownerClicks(baseUrl, owner, clientIds, () => !running());
  await Promise.all([...othersWork, heavyWork]);
  return {
    database,
    heavy,
    otherOwners,
    heavySize: heavyOwner.size,
    heavyDone,
    quiet,
    busy,
    failures,
  };
}
