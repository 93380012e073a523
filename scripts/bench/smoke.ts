// npm run bench:smoke
//
// A check of a few seconds that the benchmark's harness still works, for CI: the bench's own
// pieces (the bundled server started with the server's Node flags, the baseline server, the
// owner it joins, the clients it writes straight into the file, the load runner and the
// balance-change runs) each do their part once, and every answer must be a success. It measures
// nothing; `npm run bench` is the measurement (docs/performance.md).
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { serverNodeFlags } from '../server-flags.ts';
import { balanceChanges, Fifo } from './balance-changes.ts';
import type { TrackedClient } from './live.ts';
import { browserHeaders, measure, type LoadResult, type Scenario } from './load.ts';
import { killAllChildren, projectRoot, startNode, type NodeProcess } from './processes.ts';
import { joinOwner, seedClients, seededRandom } from './seed.ts';

const serverScript = path.join(projectRoot, 'dist/server/main.js');
// One connection for three seconds after no warm-up: enough for each scenario to answer, also
// beside the end-to-end tests in CI (a request still unanswered when a run ends is not counted,
// and one second once saw no balance change answered).
const once = { connections: 1, durationSeconds: 3, warmupSeconds: 0 };
const seededCount = 50;

function expectAllOk(name: string, result: LoadResult): void {
  if (result.ok === 0 || result.non2xx > 0 || result.errors > 0) {
    throw new Error(
      `${name}: ${result.ok} successes, status codes ${JSON.stringify(result.statusCodes)}, ` +
        `${result.errors} connection errors`,
    );
  }
  process.stdout.write(`bench smoke: ${name}: ${result.ok} answers, all 2xx\n`);
}

async function main(): Promise<void> {
  if (!existsSync(serverScript)) {
    throw new Error(`${serverScript} is missing: run \`npm run build\` first`);
  }
  const tmp = mkdtempSync(path.join(os.tmpdir(), 'balance-bench-smoke-'));
  const started: NodeProcess[] = [];
  try {
    const env = { LOG_LEVEL: 'warn', MAX_CONNECTIONS_PER_ADDRESS: '0' };
    const file = path.join(tmp, 'smoke.sqlite');
    const baseline = await startNode(
      'baseline',
      'scripts/bench/baseline-server.ts',
      env,
      '/baseline',
      serverNodeFlags,
    );
    started.push(baseline);
    const server = await startNode(
      'server',
      serverScript,
      { ...env, DATABASE_URL: file },
      '/api/health',
      serverNodeFlags,
    );
    started.push(server);

    const { cookie, bookId } = await joinOwner(server.url);
    const seeded = seedClients({ file, bookId, count: seededCount, random: seededRandom(1) });
    const queue = new Fifo<TrackedClient>(seeded.map((id) => ({ id, version: 1 })));
    const scenarios: [string, string, Scenario][] = [
      ['baseline', baseline.url, { path: '/baseline' }],
      ['health', server.url, { path: '/api/health' }],
      ['client list', server.url, { path: '/api/clients', headers: { ...browserHeaders, cookie } }],
      [
        'balance changes',
        server.url,
        { requests: balanceChanges(queue, { cookie, 'content-type': 'application/json' }) },
      ],
    ];
    for (const [name, url, scenario] of scenarios)
      expectAllOk(name, await measure(url, scenario, once));
    // The seeded clients are the ones the list shows: the harness wrote rows the app reads.
    const list = await fetch(`${server.url}/api/clients?limit=${seededCount}`, {
      headers: { cookie },
    });
    const body = (await list.json()) as { clients?: unknown[] };
    if (list.status !== 200 || body.clients?.length !== seededCount) {
      throw new Error(
        `the list answered ${list.status} with ${body.clients?.length} of ${seededCount} clients`,
      );
    }
    process.stdout.write('bench smoke: passed\n');
  } finally {
    await Promise.all(started.map((node) => node.stop()));
    killAllChildren();
    rmSync(tmp, { recursive: true, force: true });
  }
}

await main();
