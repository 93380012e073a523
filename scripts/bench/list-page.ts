// The client list's first page of 50 (what the dashboard opens on) under load, at a small and a
// large book, on SQLite and PostgreSQL: whether a page costs the same however many clients the
// owner has (decision 035). With a second build (BENCH_BEFORE_COMMIT), both are measured side
// by side on the same machine, their runs alternating.
import path from 'node:path';
import { importBody } from './blocking.ts';
import { browserHeaders, measure, type LoadRequest, type LoadSettings } from './load.ts';
import type { ThrowawayDatabase } from './postgres.ts';
import { startNode, type NodeProcess } from './processes.ts';
import { joinOwner } from './seed.ts';

export interface ListPageRow {
  build: string;
  database: 'SQLite' | 'PostgreSQL';
  clients: number;
  /** One measured run per round, the builds alternating. */
  runs: { okPerSecond: number; p50Ms: number }[];
  /** With `payments`: a payment run after each list run, to the first page's clients in turn. */
  paymentRuns: { okPerSecond: number; p50Ms: number }[];
}

/** `POST /api/clients/:id/entries` payments of 1, the ids taken in turn. */
function payments(clientIds: string[], cookie: string): LoadRequest[] {
  let sent = 0;
  return [
    {
      method: 'POST',
      headers: { cookie, 'content-type': 'application/json' },
      body: JSON.stringify({ kind: 'payment', amount: 1 }),
      setupRequest: (request) => ({
        ...request,
        path: `/api/clients/${clientIds[sent++ % clientIds.length]}/entries`,
      }),
    },
  ];
}

async function firstPageIds(baseUrl: string, cookie: string): Promise<string[]> {
  const response = await fetch(`${baseUrl}/api/clients?limit=50`, { headers: { cookie } });
  const page = (await response.json()) as { clients: { id: string }[] };
  if (response.status !== 200 || page.clients.length === 0)
    throw new Error(`the list page answered ${response.status} with no clients to pay`);
  return page.clients.map((client) => client.id);
}

/** The import's own limit on the rows of one request. */
const rowsPerImport = 20_000;

async function seedOwner(baseUrl: string, count: number): Promise<string> {
  const { cookie } = await joinOwner(baseUrl);
  for (let round = 0; round * rowsPerImport < count; round++) {
    const rows = Math.min(rowsPerImport, count - round * rowsPerImport);
    const response = await fetch(`${baseUrl}/api/clients/import`, {
      method: 'POST',
      headers: { cookie, 'content-type': 'application/json' },
      body: importBody(rows, round),
    });
    const text = await response.text();
    if (response.status !== 200) throw new Error(`import answered ${response.status}: ${text}`);
  }
  return cookie;
}

export async function measureListPages(options: {
  builds: { name: string; script: string }[];
  sizes: number[];
  dir: string;
  /** A new empty PostgreSQL database, or why there is none. */
  postgres: () => Promise<ThrowawayDatabase | { skipped: string }>;
  env: Record<string, string>;
  nodeFlags: readonly string[];
  load: LoadSettings;
  rounds: number;
  /** Also measure a payment run beside each list run (the book scope's cost, decision 044). */
  payments?: boolean;
  log: (line: string) => void;
}): Promise<{ rows: ListPageRow[]; postgresSkipped: string | null }> {
  const rows: ListPageRow[] = [];
  let postgresSkipped: string | null = null;
  for (const database of ['SQLite', 'PostgreSQL'] as const) {
    for (const size of options.sizes) {
      const servers: {
        row: ListPageRow;
        server: NodeProcess;
        cookie: string;
        clientIds: string[];
        drop?: () => Promise<void>;
      }[] = [];
      try {
        for (const build of options.builds) {
          let url = path.join(options.dir, `list-${build.name}-${size}.sqlite`);
          let drop: (() => Promise<void>) | undefined;
          if (database === 'PostgreSQL') {
            const made = await options.postgres();
            if ('skipped' in made) {
              postgresSkipped = made.skipped;
              break;
            }
            url = made.url;
            drop = () => made.drop();
          }
          const server = await startNode(
            `${build.name} (${database})`,
            build.script,
            { ...options.env, DATABASE_URL: url },
            '/api/health',
            options.nodeFlags,
          );
          options.log(`list page: ${build.name} on ${database}, importing ${size} clients`);
          const cookie = await seedOwner(server.url, size);
          const clientIds = await firstPageIds(server.url, cookie);
          const row = { build: build.name, database, clients: size, runs: [], paymentRuns: [] };
          servers.push({ row, server, cookie, clientIds, ...(drop ? { drop } : {}) });
        }
        if (postgresSkipped !== null && database === 'PostgreSQL') break;
        for (let round = 0; round < options.rounds; round++) {
          for (const { row, server, cookie, clientIds } of servers) {
            options.log(
              `list page: ${row.build} on ${database}, ${size} clients, round ${round + 1}`,
            );
            const result = await measure(
              server.url,
              { path: '/api/clients?limit=50', headers: { ...browserHeaders, cookie } },
              options.load,
            );
            if (result.non2xx > 0 || result.errors > 0)
              throw new Error(
                `the list page failed under load: ${JSON.stringify(result.statusCodes)}`,
              );
            row.runs.push({ okPerSecond: result.okPerSecond, p50Ms: result.p50Ms });
            if (!options.payments) continue;
            options.log(`payments: ${row.build} on ${database}, round ${round + 1}`);
            const paid = await measure(
              server.url,
              { requests: payments(clientIds, cookie) },
              options.load,
            );
            if (paid.non2xx > 0 || paid.errors > 0)
              throw new Error(`payments failed under load: ${JSON.stringify(paid.statusCodes)}`);
            row.paymentRuns.push({ okPerSecond: paid.okPerSecond, p50Ms: paid.p50Ms });
          }
        }
        rows.push(...servers.map(({ row }) => row));
      } finally {
        for (const { server, drop } of servers) {
          await server.stop();
          await drop?.();
        }
      }
    }
  }
  return { rows, postgresSkipped };
}
