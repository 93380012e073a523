// What one owner feels while others use the same instance (issue 41's first target): their list
// page and a payment, one after the other as a person clicks, first on a quiet server, then while
// 50 other owners each make a request a second and one more owner imports 20,000 rows after
// another. The target is p95 ≤ 50 ms for both under that load.
import { setTimeout as sleep } from 'node:timers/promises';
import { importBody } from './blocking.ts';
import { percentiles, type Percentiles } from './live.ts';
import { joinOwner, seedClients } from './seed.ts';

export interface FeltLatencyResult {
  otherOwners: number;
  importRows: number;
  imports: number;
  quiet: { list: Percentiles; payment: Percentiles };
  busy: { list: Percentiles; payment: Percentiles };
  /** Requests of the other owners and the importer that did not answer 2xx. */
  failures: number;
}

export interface FeltLatencyOptions {
  baseUrl: string;
  dbFile: string;
  random: () => number;
  seconds: number;
  clients: number;
  otherOwners: number;
  importRows: number;
}

type Owner = { cookie: string; ownerId: string };

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

export async function measureFeltLatency(options: FeltLatencyOptions): Promise<FeltLatencyResult> {
  const { baseUrl, dbFile, random, seconds, clients, otherOwners, importRows } = options;
  const owner = await joinOwner(baseUrl);
  const clientIds = seedClients({ file: dbFile, ownerId: owner.ownerId, count: clients, random });
  const others: Owner[] = [];
  for (let joined = 0; joined < otherOwners; joined++) {
    const other = await joinOwner(baseUrl);
    seedClients({ file: dbFile, ownerId: other.ownerId, count: 50, random });
    others.push(other);
  }
  const importer = await joinOwner(baseUrl);

  let stopAt = performance.now() + seconds * 1000;
  const quiet = await ownerClicks(baseUrl, owner, clientIds, () => performance.now() > stopAt);

  stopAt = performance.now() + seconds * 1000;
  const running = () => performance.now() < stopAt;
  let failures = 0;
  let imports = 0;
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
  const importing = (async () => {
    while (running()) {
      await count(
        fetch(`${baseUrl}/api/clients/import`, {
          method: 'POST',
          headers: { cookie: importer.cookie, 'content-type': 'application/json' },
          body: importBody(importRows, imports),
        }),
      );
      imports++;
    }
  })();
  const busy = await ownerClicks(baseUrl, owner, clientIds, () => !running());
  await Promise.all([...othersWork, importing]);
  return { otherOwners, importRows, imports, quiet, busy, failures };
}
