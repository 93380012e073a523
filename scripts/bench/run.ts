// npm run bench [-- --quick] [-- --clients 100000] [-- --duration 10]
//
// Measures the real server against a bare Fastify baseline in one run, so that ratios stay
// comparable on a noisy shared machine. Asserts nothing: a missed target is reported, and only
// a failure of the harness itself exits non-zero. See docs/performance.md.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { parseArgs } from 'node:util';
import { serverNodeFlags } from '../server-flags.ts';
import {
  duringHeavy,
  fetchDropping,
  importBody,
  probeIdle,
  type HeavyResult,
  type ProbeResult,
} from './blocking.ts';
import { firstPageJs, type BundleSize } from './bundle.ts';
import { largeOwner, type LargeOwnerResult } from './large-owner.ts';
import { longLedger, type LongLedgerResult } from './long-ledger.ts';
import { statementPdfs, type StatementPdfsResult } from './statement-pdfs.ts';
import { reminderSenderMinute, type ReminderSenderResult } from './reminder-sender.ts';
import { hostileStatements, type HostileStatementResult } from './hostile-statement.ts';
import {
  longLedgerFile,
  measureFeltLatency,
  type FeltLatencyOptions,
  type FeltLatencyResult,
} from './felt-latency.ts';
import { measureJsonServer, type VersusResult } from './versus.ts';
import {
  measureLive,
  percentile,
  type LiveResult,
  type Percentiles,
  type TrackedClient,
} from './live.ts';
import { browserHeaders, measure, type LoadResult, type LoadSettings } from './load.ts';
import { createThrowawayDatabase, defaultPostgresUrl, safeUrl } from './postgres.ts';
import {
  killAllChildren,
  openFileLimit,
  projectRoot,
  rssMb,
  startNode,
  type NodeProcess,
} from './processes.ts';
import { joinOwner, seedClients, seededRandom } from './seed.ts';
import { balanceChanges, Fifo, noSuchId } from './balance-changes.ts';
import { measureSqliteCeiling, type SqliteCeiling } from './sqlite-ceiling.ts';
import {
  buildEarlierServer,
  buildServerAt,
  earlierCommitShort,
  seedEarlierServer,
} from './earlier-build.ts';
import { measureListPages, type ListPageRow } from './list-page.ts';

const { values: flags } = parseArgs({
  options: {
    quick: { type: 'boolean', default: false },
    clients: { type: 'string' },
    'export-clients': { type: 'string' },
    duration: { type: 'string' },
    'large-clients': { type: 'string' },
    'large-entries': { type: 'string' },
    'long-entries': { type: 'string' },
    only: { type: 'string' },
    subscribers: { type: 'string' },
    help: { type: 'boolean', default: false },
  },
});
const onlyParts = [
  'heavy',
  'large-owner',
  'json-server',
  'live',
  'earlier',
  'pdf',
  'felt',
  'hostile',
  'reminders',
  'list-page',
  'book-scope',
] as const;
type OnlyPart = (typeof onlyParts)[number];
if (flags.help) {
  process.stdout.write(
    'npm run bench -- [--quick] [--clients N] [--duration SECONDS]\n' +
      '  --quick      CI size: 1,000 clients, 2 s runs, 1 and 10 subscribers\n' +
      '  --clients N  clients seeded for the one owner (default 10,000)\n' +
      '  --duration S seconds per measured load run (default 10; 2 with --quick)\n' +
      '  --export-clients N  clients of the owner whose exports are measured (default 1,000,000;\n' +
      '               20,000 with --quick)\n' +
      '  --large-clients N, --large-entries N  the owner whose ageing, overdue filter and searches\n' +
      '               are timed (default 100,000 and 1,000,000; 5,000 and 50,000 with --quick)\n' +
      '  --long-entries N  entries of the one client whose payments are timed with the large\n' +
      '               owner, and of the large statement PDF (default 20,000; 2,000 with --quick)\n' +
      `  --only LIST  only these parts, comma-separated: ${onlyParts.join(', ')}\n` +
      '               (book-scope runs only when asked for: it builds the server before books)\n' +
      '  --subscribers LIST  live streams per live run, comma-separated (default 1,100,1000;\n' +
      '               1,10 with --quick)\n' +
      'PostgreSQL (two instances) at $BENCH_DATABASE_URL, else ' +
      `${defaultPostgresUrl}, when reachable.\n`,
  );
  process.exit(0);
}

function positiveInt(text: string | undefined, fallback: number, name: string): number {
  if (text === undefined) return fallback;
  const value = Number(text.replaceAll('_', '').replaceAll(',', ''));
  if (!Number.isSafeInteger(value) || value < 1)
    throw new Error(`--${name} must be a whole number above 0`);
  return value;
}

const quick = flags.quick;
const clientCount = positiveInt(flags.clients, quick ? 1_000 : 10_000, 'clients');
const load: LoadSettings = {
  connections: 10,
  durationSeconds: positiveInt(flags.duration, quick ? 2 : 10, 'duration'),
  warmupSeconds: quick ? 1 : 3,
};
const exportClientCount = positiveInt(
  flags['export-clients'],
  quick ? 20_000 : 1_000_000,
  'export-clients',
);
const largeClients = positiveInt(flags['large-clients'], quick ? 5_000 : 100_000, 'large-clients');
const largeEntries = positiveInt(
  flags['large-entries'],
  quick ? 50_000 : 1_000_000,
  'large-entries',
);
const longEntries = positiveInt(flags['long-entries'], quick ? 2_000 : 20_000, 'long-entries');
const only: OnlyPart[] | null = flags.only
  ? flags.only.split(',').map((part) => {
      if (!(onlyParts as readonly string[]).includes(part))
        throw new Error(`--only takes ${onlyParts.join(', ')}; not ${part}`);
      return part as OnlyPart;
    })
  : null;
const importRows = 20_000;
const importRuns = quick ? 1 : 3;
const subscriberCounts = flags.subscribers
  ? flags.subscribers.split(',').map((text) => positiveInt(text, 1, 'subscribers'))
  : quick
    ? [1, 10]
    : [1, 100, 1000];
const liveChanges = quick ? 10 : 50;
const startRuns = quick ? 3 : 5;
const postgresUrl = process.env.BENCH_DATABASE_URL ?? defaultPostgresUrl;
const clientDir = path.join(projectRoot, 'dist/client');
// What `npm start` runs: the bundled server, built below with the browser app.
const serverScript = 'dist/server/main.js';
const baselineScript = 'scripts/bench/baseline-server.ts';
// All the bench's traffic comes from one address, and the live phase opens up to 1,000 streams
// for one owner with one session cookie: the caps that keep one visitor from holding too much
// (64 connections per address, 8 streams per session, 32 per owner) would refuse them.
const serverEnv = {
  LOG_LEVEL: 'warn',
  LIVE_STREAMS_PER_SESSION: '2000',
  LIVE_STREAMS_PER_OWNER: '2000',
  MAX_CONNECTIONS: '5000',
  MAX_CONNECTIONS_PER_ADDRESS: '0',
  // The bench's owners all join from 127.0.0.1.
  SIGN_UPS_PER_ADDRESS_PER_HOUR: '0',
};

const log = (line: string) => process.stderr.write(`· ${line}\n`);
const out = (line = '') => process.stdout.write(`${line}\n`);

/** Undone in reverse order on the way out, on success, failure or Ctrl-C alike. */
const cleanups: (() => Promise<void> | void)[] = [];
async function cleanUp(): Promise<void> {
  while (cleanups.length > 0) {
    const step = cleanups.pop();
    try {
      await step?.();
    } catch (error) {
      log(`clean-up step failed: ${String(error)}`);
    }
  }
  killAllChildren();
}
process.on('exit', killAllChildren);
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    log(`${signal}: stopping`);
    void Promise.race([cleanUp(), sleep(8000)]).finally(() => process.exit(130));
  });
}

// ---------------------------------------------------------------------------------------------

async function getJson<T>(url: string, cookie: string): Promise<{ status: number; body: T }> {
  const response = await fetch(url, { headers: { cookie } });
  const text = await response.text();
  return { status: response.status, body: (text ? JSON.parse(text) : null) as T };
}

interface Row {
  name: string;
  result: LoadResult | null;
}

function requireSuccess(name: string, result: LoadResult): LoadResult {
  if (result.ok === 0) {
    throw new Error(
      `${name}: no 2xx answer at all (status codes ${JSON.stringify(result.statusCodes)}, ` +
        `${result.errors} connection errors); the harness or the server is broken`,
    );
  }
  return result;
}

// ---------------------------------------------------------------------------------------------

interface Report {
  /** What a visitor's first page loads, and an owner's (plus the lazily loaded dashboard). */
  bundle: { signedOut: BundleSize; signedIn: BundleSize };
  rows: Row[];
  baselineOkPerSecond: number;
  baselineRuns: number[];
  /** Bytes of the list's first page (JSON, and gzipped) and of the list-sized reference. */
  answerBytes: { list: number; listGzipped: number; reference: number };
  live: LiveResult[];
  liveAcross: LiveResult[] | string;
  startMs: number[];
  memory: { idleMb: number | null; baselineIdleMb: number | null; afterMb: number | null };
  seedMs: number;
  fileLimits: { bench: number | null; server: number | null };
  heavy: { idle: ProbeResult; results: HeavyResult[] };
  large: LargeOwnerResult;
  longLedger: LongLedgerResult;
  pdfs: StatementPdfsResult;
  hostile: HostileStatementResult;
  versus: VersusResult;
  earlier: EarlierResult;
  ceiling: SqliteCeiling;
}

/** The server under measure, whose last output is shown should the bench fail. */
const benchServer: { current: { output(): string } | null } = { current: null };

async function main(): Promise<void> {
  const began = performance.now();
  const dateText = new Date().toISOString();
  log(
    `bench ${quick ? '--quick ' : ''}with ${clientCount} clients, ${load.connections} connections, ` +
      `${load.durationSeconds} s runs after ${load.warmupSeconds} s warm-up`,
  );

  // The production build, as `npm start` makes it: the browser app measured below and the
  // bundled server the bench starts. Always rebuilt, so no stale build is measured.
  log('running `npm run build`');
  const build = spawnSync('npm', ['run', 'build'], {
    cwd: projectRoot,
    // Its output goes to stderr with the progress lines; stdout is kept for the report.
    stdio: ['ignore', 2, 2],
  });
  if (build.status !== 0) throw new Error('npm run build failed');
  const bundle = {
    signedOut: firstPageJs(clientDir),
    // The signed-in dashboard's two chunks (a language's texts are chunks named after it).
    signedIn: firstPageJs(clientDir, /^(client-dashboard|dashboard-overview)-/),
  };

  const tmp = mkdtempSync(path.join(os.tmpdir(), 'balance-bench-'));
  cleanups.push(() => rmSync(tmp, { recursive: true, force: true }));
  const dbFile = path.join(tmp, 'bench.sqlite');

  // Started as the server is, so the ratios compare the app and not the flags.
  const baseline = await startNode(
    'baseline',
    baselineScript,
    serverEnv,
    '/baseline',
    serverNodeFlags,
  );
  cleanups.push(() => baseline.stop());
  const startServer = async () => {
    const started = await startNode(
      'server',
      serverScript,
      { ...serverEnv, DATABASE_URL: dbFile },
      '/api/health',
      serverNodeFlags,
    );
    benchServer.current = started;
    return started;
  };
  let server = await startServer();
  cleanups.push(() => server.stop());

  if (only) {
    await runOnly(only, server, dbFile, dateText);
    log(`bench finished in ${Math.round((performance.now() - began) / 1000)} s`);
    return;
  }

  // Idle means started and left alone: before the join, whose argon2 hash borrows 19 MiB.
  await sleep(2000);
  const memory: Report['memory'] = {
    idleMb: rssMb(server.pid),
    baselineIdleMb: rssMb(baseline.pid),
    afterMb: null,
  };
  log(`idle: server ${fmt(memory.idleMb, 1)} MB, baseline ${fmt(memory.baselineIdleMb, 1)} MB`);
  const { cookie, bookId } = await joinOwner(server.url);

  const random = seededRandom(20261121);
  let seedMs = performance.now();
  const seeded = seedClients({ file: dbFile, bookId, count: clientCount, random });
  seedMs = performance.now() - seedMs;
  log(
    `seeded ${clientCount} clients (with opening entries and events) in ${Math.round(seedMs)} ms`,
  );

  // The first clients are kept for the live-update phase, untouched by the load runs.
  const liveClients: TrackedClient[] = seeded
    .slice(0, liveChanges)
    .map((id) => ({ id, version: 1 }));
  const balanceQueue = new Fifo<TrackedClient>(
    seeded.slice(liveChanges).map((id) => ({ id, version: 1 })),
  );

  const auth = { cookie };
  const json = { cookie, 'content-type': 'application/json' };
  const rows: Row[] = [];
  const baselineRuns: number[] = [];
  const run = async (name: string, baseUrl: string, scenario: Parameters<typeof measure>[1]) => {
    log(`load: ${name}`);
    const result = requireSuccess(name, await measure(baseUrl, scenario, load));
    rows.push({ name, result });
    return result;
  };

  baselineRuns.push(
    (await run('baseline: bare Fastify, fixed JSON', baseline.url, { path: '/baseline' }))
      .okPerSecond,
  );

  // Two cheap routes of the real server split the list's cost into framework, session, query.
  await run('health: GET /api/health (app, 1 query)', server.url, { path: '/api/health' });
  await run('session: GET /api/auth/session (+ cookie)', server.url, {
    path: '/api/auth/session',
    headers: auth,
  });

  const first = await getJson<{ nextCursor: string | null; count: number }>(
    `${server.url}/api/clients`,
    cookie,
  );
  if (first.status !== 200 || first.body.count !== clientCount) {
    throw new Error(`GET /api/clients answered ${first.status} with count ${first.body.count}`);
  }
  // As the web app asks for it: a browser accepts gzip, and the list is sent gzipped.
  await run('list: GET /api/clients (first page)', server.url, {
    path: '/api/clients',
    headers: { ...auth, ...browserHeaders },
  });
  await run('list: first page, no Accept-Encoding (JSON as it is)', server.url, {
    path: '/api/clients',
    headers: auth,
  });
  if (first.body.nextCursor) {
    await run('list: next page (cursor)', server.url, {
      path: `/api/clients?cursor=${encodeURIComponent(first.body.nextCursor)}`,
      headers: { ...auth, ...browserHeaders },
    });
  }
  await run('list: ?limit=1 (one row)', server.url, {
    path: '/api/clients?limit=1',
    headers: auth,
  });
  const reference = await fetch(`${baseline.url}/baseline/list-sized`);
  const referenceBytes = (await reference.text()).length;
  const gzipped = await fetch(`${server.url}/api/clients`, {
    headers: { ...auth, 'accept-encoding': 'gzip' },
  });
  await gzipped.arrayBuffer();
  const answerBytes = {
    list: JSON.stringify(first.body).length,
    listGzipped: Number(gzipped.headers.get('content-length')),
    reference: referenceBytes,
  };
  await run('reference: bare Fastify, fixed list-sized text', baseline.url, {
    path: '/baseline/list-sized',
  });

  // Totals travel with the list today; should a separate endpoint appear, it is measured.
  const totalsProbe = await getJson<unknown>(`${server.url}/api/clients/totals`, cookie);
  if (totalsProbe.status === 200) {
    await run('totals: GET /api/clients/totals', server.url, {
      path: '/api/clients/totals',
      headers: auth,
    });
  } else {
    rows.push({ name: 'totals: no separate endpoint, part of GET /api/clients', result: null });
  }

  let added = 0;
  await run('add: POST /api/clients', server.url, {
    requests: [
      {
        method: 'POST',
        path: '/api/clients',
        headers: json,
        setupRequest: (request) => {
          added++;
          const body = {
            firstName: 'Bench',
            lastName: `Added ${added}`,
            email: `bench.added.${added}@example.com`,
            phone: '+1 555 0100100',
            currency: (['KRW', 'USD', 'CAD', 'MYR'] as const)[added % 4],
            balance: (added % 2000) - 500,
          };
          return { ...request, body: JSON.stringify(body) };
        },
      },
    ],
  });

  const { balance, earlier } = await balanceBesideEarlier(tmp, () =>
    run('balance change: PATCH …/balance', server.url, {
      requests: balanceChanges(balanceQueue, json),
    }),
  );
  rows.push(...earlierRows(earlier));
  log("sqlite ceiling: a payment's own writes in node:sqlite, one by one and ten at a time");
  const ceiling = measureSqliteCeiling(tmp, load.durationSeconds);

  // Deletes use up their clients: seed a pool sized from the write rate just measured.
  const deletePoolSize = Math.ceil(
    Math.max(500, balance.answersPerSecond) * (load.durationSeconds + load.warmupSeconds) * 2 + 500,
  );
  const deletePool = new Fifo<string>(
    seedClients({ file: dbFile, bookId, count: deletePoolSize, random, offset: clientCount }),
  );
  await run('delete: DELETE /api/clients/:id', server.url, {
    requests: [
      {
        method: 'DELETE',
        headers: auth,
        setupRequest: (request) => ({
          ...request,
          path: `/api/clients/${deletePool.shift() ?? noSuchId}`,
        }),
      },
    ],
  });

  baselineRuns.push(
    (await run('baseline again (drift check)', baseline.url, { path: '/baseline' })).okPerSecond,
  );
  const baselineOkPerSecond = baselineRuns.reduce((a, b) => a + b, 0) / baselineRuns.length;

  const versus = await measureJsonServer({ dbFile, bookId, dir: tmp, load, log });

  // Live updates on one instance.
  const fileLimits = { bench: openFileLimit('self'), server: openFileLimit(server.pid) };
  const live = await liveOneInstance(server, cookie, liveClients, fileLimits);
  await sleep(1000);
  memory.afterMb = rssMb(server.pid);

  // The heavy requests begin on a new process over the same file, as `--only heavy` runs them,
  // so that the memory an export takes is its own: on the process that had served the load and
  // a thousand streams, memory it had given back was taken again during the export, and that
  // said more about its past than about the export (docs/performance.md, step 9).
  await server.stop();
  server = await startServer();
  const heavy = await heavyRequests(server.url, server.pid, dbFile, random);
  const { large, long } = await largeData(server, dbFile, random);
  const pdfs = await measurePdfs(server, dbFile, random);
  const hostile = await measureHostile(server);

  await server.stop();
  await baseline.stop();

  // Start to first answer, on the database just used (migrated, full of clients).
  const startMs: number[] = [];
  for (let i = 0; i < startRuns; i++) {
    const started = await startNode(
      'server',
      serverScript,
      { ...serverEnv, DATABASE_URL: dbFile },
      '/api/health',
      serverNodeFlags,
    );
    startMs.push(started.startMs);
    await started.stop();
  }
  log(`start to first answer: ${startMs.map((ms) => Math.round(ms)).join(', ')} ms`);

  const liveAcross = await acrossInstances();

  printReport(
    {
      bundle,
      rows,
      baselineOkPerSecond,
      baselineRuns,
      answerBytes,
      live,
      liveAcross,
      startMs,
      memory,
      seedMs,
      fileLimits,
      heavy,
      large,
      longLedger: long,
      pdfs,
      hostile,
      versus,
      earlier,
      ceiling,
    },
    dateText,
  );
  log(`bench finished in ${Math.round((performance.now() - began) / 1000)} s`);
}

/** The earlier build's two runs of balance changes (earlier-build.ts), or why there are none. */
type EarlierResult = { runs: [LoadResult, LoadResult] } | { skipped: string };

const earlierName = `balance change: the build of ${earlierCommitShort}`;
const firstLine = (error: unknown) =>
  (error instanceof Error ? error.message : String(error)).split('\n')[0] ?? '';

/**
 * Balance's balance changes (`runBalance`) between two runs of the same load against Balance as
 * it was before SQLite moved off the request thread, on a database of its own with as many
 * clients: the machine's drift over the three runs falls on both sides alike. Should that build
 * fail here (its history missing, or code that today's packages no longer build or run), the
 * comparison is reported as not made, with the reason, and the rest of the bench runs.
 */
async function balanceBesideEarlier(
  tmp: string,
  runBalance: () => Promise<LoadResult>,
): Promise<{ balance: LoadResult; earlier: EarlierResult }> {
  let earlier: NodeProcess | null = null;
  let failure: string | null = null;
  let runEarlier: (() => Promise<LoadResult | null>) | null = null;
  try {
    log(`building the server of ${earlierCommitShort}`);
    const built = buildEarlierServer(path.join(tmp, 'earlier'));
    if ('skipped' in built) {
      failure = built.skipped;
    } else {
      // Without today's Node flags: as that build's own `npm start` started it.
      const started = await startNode(
        'earlier build',
        built.script,
        { ...serverEnv, DATABASE_URL: path.join(tmp, 'earlier.sqlite') },
        '/api/health',
      );
      earlier = started;
      const { cookie, clients } = await seedEarlierServer(started.url, clientCount);
      const json = { cookie, 'content-type': 'application/json' };
      const requests = balanceChanges(new Fifo<TrackedClient>(clients), json);
      runEarlier = async () => {
        log(`load: ${earlierName}`);
        try {
          return requireSuccess(earlierName, await measure(started.url, { requests }, load));
        } catch (error) {
          failure = `it failed: ${firstLine(error)}`;
          return null;
        }
      };
    }
  } catch (error) {
    failure = `it failed: ${firstLine(error)}`;
  }
  try {
    const before = (await runEarlier?.()) ?? null;
    const balance = await runBalance();
    const after = (before && (await runEarlier?.())) ?? null;
    if (failure !== null || !before || !after) {
      const skipped = failure ?? 'it was not measured';
      log(`${earlierName}: skipped, ${skipped}\n${earlier?.output().slice(-2000) ?? ''}`);
      return { balance, earlier: { skipped } };
    }
    return { balance, earlier: { runs: [before, after] } };
  } finally {
    await earlier?.stop();
  }
}

/** The earlier build's rows of the throughput table, or the reason it has none. */
function earlierRows(earlier: EarlierResult): Row[] {
  if ('skipped' in earlier)
    return [{ name: `${earlierName} (skipped: ${earlier.skipped})`, result: null }];
  return [
    { name: `${earlierName}, before`, result: earlier.runs[0] },
    { name: `${earlierName}, after`, result: earlier.runs[1] },
  ];
}

/**
 * One owner's heavy requests (a 20,000-row import, exports of a very long list) while health is
 * probed: each owner gets an account of its own, so the list figures above are not disturbed.
 */
async function heavyRequests(
  baseUrl: string,
  serverPid: number,
  dbFile: string,
  random: () => number,
): Promise<Report['heavy']> {
  log('health probe on the idle server');
  const idle = await probeIdle(baseUrl, quick ? 2000 : 5000);
  const results: HeavyResult[] = [];

  const importer = await joinOwner(baseUrl);
  // Made (as bytes) before the probe starts: making one holds this process for 13-24 ms, which
  // the probe would count against the server.
  const bodies = Array.from({ length: importRuns }, (_, round) =>
    Buffer.from(importBody(importRows, round)),
  );
  let round = 0;
  log(`health during ${importRuns} imports of ${fmt(importRows)} rows`);
  results.push(
    await duringHeavy(`import of ${fmt(importRows)} rows`, baseUrl, serverPid, importRuns, () =>
      fetchDropping(`${baseUrl}/api/clients/import`, {
        method: 'POST',
        headers: { cookie: importer.cookie, 'content-type': 'application/json' },
        body: bodies[round++],
      }),
    ),
  );

  const exporter = await joinOwner(baseUrl);
  log(`seeding ${fmt(exportClientCount)} clients for the exports`);
  seedClients({ file: dbFile, bookId: exporter.bookId, count: exportClientCount, random });
  for (const [name, path] of [
    ['CSV export', '/api/clients/export.csv'],
    ['JSON export', '/api/export.json'],
  ] as const) {
    log(`health during the ${name} of ${fmt(exportClientCount)} clients`);
    // Memory settles between the exports, so each one's growth is its own.
    await sleep(2000);
    results.push(
      await duringHeavy(`${name} of ${fmt(exportClientCount)} clients`, baseUrl, serverPid, 1, () =>
        fetchDropping(baseUrl + path, { headers: { cookie: exporter.cookie } }),
      ),
    );
  }
  return { idle, results };
}

/** Live updates on one instance (SQLite), for each number of subscribers. */
async function liveOneInstance(
  server: { url: string; pid: number },
  cookie: string,
  clients: TrackedClient[],
  fileLimits: { bench: number | null; server: number | null },
): Promise<LiveResult[]> {
  const live: LiveResult[] = [];
  for (const subscribers of subscriberCounts) {
    log(`live (one instance, SQLite): ${subscribers} subscribers × ${liveChanges} changes`);
    const limit = Math.min(fileLimits.bench ?? Infinity, fileLimits.server ?? Infinity);
    if (subscribers + 100 > limit) {
      log(`open-file limit ${limit} may be too low for ${subscribers} streams; expect EMFILE`);
    }
    live.push(
      await measureLive({
        subscribeUrl: server.url,
        writeUrl: server.url,
        cookie,
        subscribers,
        changes: liveChanges,
        clients,
        serverPid: server.pid,
      }),
    );
  }
  return live;
}

/** Two server processes on one throwaway PostgreSQL database: subscribers on 2, writes on 1. */
async function acrossInstances(): Promise<LiveResult[] | string> {
  const database = await createThrowawayDatabase(postgresUrl, quick ? 1000 : 3000);
  if ('skipped' in database) {
    log(`live across instances skipped: ${database.skipped}`);
    return database.skipped;
  }
  log(`live across two instances on PostgreSQL ${safeUrl(database.url)}`);
  cleanups.push(() => database.drop());
  const env = { ...serverEnv, DATABASE_URL: database.url };
  // One after the other: the first runs the migrations.
  const one = await startNode('instance 1', serverScript, env, '/api/health', serverNodeFlags);
  cleanups.push(() => one.stop());
  const two = await startNode('instance 2', serverScript, env, '/api/health', serverNodeFlags);
  cleanups.push(() => two.stop());
  const { cookie } = await joinOwner(one.url);
  const clients: TrackedClient[] = [];
  for (let i = 0; i < liveChanges; i++) {
    const response = await fetch(`${one.url}/api/clients`, {
      method: 'POST',
      headers: { cookie, 'content-type': 'application/json' },
      body: JSON.stringify({
        firstName: 'Live',
        lastName: `Client ${i}`,
        email: `live.${i}@example.com`,
        phone: '+1 555 0100200',
        currency: 'USD',
        balance: 0,
      }),
    });
    if (response.status !== 201) throw new Error(`add on PostgreSQL answered ${response.status}`);
    const client = (await response.json()) as TrackedClient;
    clients.push({ id: client.id, version: client.version });
  }
  const results: LiveResult[] = [];
  for (const subscribers of subscriberCounts) {
    log(`live (across instances): ${subscribers} subscribers × ${liveChanges} changes`);
    results.push(
      await measureLive({
        subscribeUrl: two.url,
        writeUrl: one.url,
        cookie,
        subscribers,
        changes: liveChanges,
        clients,
        serverPid: two.pid,
      }),
    );
  }
  await two.stop();
  await one.stop();
  await database.drop();
  return results;
}

// ---------------------------------------------------------------------------------------------

function fmt(value: number | null | undefined, digits = 0): string {
  if (value === null || value === undefined || Number.isNaN(value)) return '–';
  return value.toLocaleString('en-US', {
    minimumFractionDigits: digits,
    maximumFractionDigits: digits,
  });
}

/** autocannon records whole milliseconds: 0 means under one. */
const ms = (value: number) => (value < 1 ? '<1' : fmt(value));

function table(headers: string[], body: string[][], alignLeft = 1): string[] {
  const widths = headers.map((header, column) =>
    Math.max(header.length, ...body.map((cells) => (cells[column] ?? '').length)),
  );
  const line = (cells: string[]) =>
    cells
      .map((cell, column) =>
        column < alignLeft ? cell.padEnd(widths[column] ?? 0) : cell.padStart(widths[column] ?? 0),
      )
      .join('  ')
      .trimEnd();
  return [line(headers), widths.map((width) => '-'.repeat(width)).join('  '), ...body.map(line)];
}

/** The live runs' table, one line per run. */
const liveLines = (results: LiveResult[]) =>
  table(
    [
      'subscribers',
      'opened',
      'changes',
      'samples',
      'missing',
      'p50 ms',
      'p95 ms',
      'max ms',
      'server RSS MB',
      'note',
    ],
    results.map((result) => [
      fmt(result.subscribers),
      fmt(result.opened),
      fmt(result.changes),
      fmt(result.samples),
      fmt(result.missing),
      fmt(result.p50Ms, 1),
      fmt(result.p95Ms, 1),
      fmt(result.maxMs, 1),
      fmt(result.serverRssMb, 1),
      result.error ?? '',
    ]),
    0,
  );

function printMachine(): void {
  const cpus = os.cpus();
  out(
    `machine: ${os.availableParallelism()} cores (${cpus[0]?.model.trim() ?? 'unknown'}), ` +
      `${fmt(os.totalmem() / 2 ** 30, 1)} GiB, Node ${process.version}, ` +
      `load average ${os
        .loadavg()
        .map((value) => value.toFixed(2))
        .join(' ')}`,
  );
}

function printReport(report: Report, dateText: string): void {
  out();
  out(`# Balance bench, ${dateText}`);
  printMachine();
  out(
    `data: ${fmt(clientCount)} clients of one owner on SQLite (seeded in ${fmt(report.seedMs)} ms); ` +
      `load: ${load.connections} connections, ${load.durationSeconds} s per run after ` +
      `${load.warmupSeconds} s warm-up`,
  );
  out();
  out(
    '## Throughput (2xx/s; the ratio is to the mean of the two baseline runs; latency in whole ms)',
  );
  const base = report.baselineOkPerSecond;
  for (const line of table(
    ['scenario', '2xx/s', 'p50 ms', 'p99 ms', 'non-2xx', 'errors', '× baseline'],
    report.rows.map((row) =>
      row.result
        ? [
            row.name,
            fmt(row.result.okPerSecond),
            ms(row.result.p50Ms),
            ms(row.result.p99Ms),
            fmt(row.result.non2xx),
            fmt(row.result.errors),
            fmt(row.result.okPerSecond / base, 3),
          ]
        : [row.name, '–', '–', '–', '–', '–', '–'],
    ),
  ))
    out(line);
  const drift =
    Math.abs((report.baselineRuns[1] ?? base) - (report.baselineRuns[0] ?? base)) / base;
  out(`baseline drift between its two runs: ${fmt(drift * 100, 1)} %`);
  out(
    `answer sizes: the list's first page ${fmt(report.answerBytes.list)} bytes of JSON ` +
      `(${fmt(report.answerBytes.listGzipped)} gzipped), ` +
      `the list-sized reference ${fmt(report.answerBytes.reference)} bytes`,
  );
  out();

  out(
    '## Live updates: committed write (its HTTP answer) to the `change` event at each subscriber',
  );
  out('### One instance (SQLite)');
  for (const line of liveLines(report.live)) out(line);
  out('### Across two instances (PostgreSQL; streams on instance 2, writes on instance 1)');
  if (typeof report.liveAcross === 'string') out(`skipped: ${report.liveAcross}`);
  else for (const line of liveLines(report.liveAcross)) out(line);
  out(
    `open-file limit: bench ${fmt(report.fileLimits.bench)}, server ${fmt(report.fileLimits.server)} ` +
      '(each stream holds one socket on each side)',
  );
  out();

  const sortedStart = [...report.startMs].sort((a, b) => a - b);
  const startMedian = percentile(sortedStart, 0.5);
  out('## Start, memory, first page');
  out(
    `start to first answer (spawn → GET /api/health 200, ${fmt(clientCount)} clients): ` +
      `median ${fmt(startMedian)} ms of ${report.startMs.map((ms) => fmt(ms)).join(', ')}`,
  );
  out(
    `server RSS: idle ${fmt(report.memory.idleMb, 1)} MB (baseline app ${fmt(report.memory.baselineIdleMb, 1)} MB), ` +
      `after the run ${fmt(report.memory.afterMb, 1)} MB`,
  );
  const { signedOut, signedIn } = report.bundle;
  const kb = (bytes: number) => fmt(bytes / 1024, 1);
  out(
    `first-page JavaScript, signed in (the dashboard): ${kb(signedIn.gzipBytes)} KB gzipped ` +
      `(${kb(signedIn.rawBytes)} KB raw) in ${signedIn.files.length} files; signed out: ` +
      `${kb(signedOut.gzipBytes)} KB gzipped; build of ${signedIn.builtAt.toISOString()}`,
  );
  const lazy = new Set(signedIn.files.map((file) => file.name));
  for (const file of signedOut.files) lazy.delete(file.name);
  for (const file of [...signedIn.files].sort((a, b) => b.gzipBytes - a.gzipBytes)) {
    out(
      `  ${file.name}: ${kb(file.gzipBytes)} KB gz, ${kb(file.rawBytes)} KB raw` +
        (lazy.has(file.name) ? ' (signed in only)' : ''),
    );
  }
  out();

  const list = report.rows.find((row) => row.name.startsWith('list: GET'))?.result;
  const balanceRow = report.rows.find((row) =>
    row.name.startsWith('balance change: PATCH'),
  )?.result;
  const { idle } = report.heavy;
  printHeavy(report.heavy);

  printLargeOwner(report.large, idle);
  printLongLedger(report.longLedger);
  printPdfs(report.pdfs);
  printHostile(report.hostile);
  if (list && balanceRow) printVersus(report.versus, { list, balance: balanceRow });

  const balance = balanceRow;
  const targetLive =
    report.live.find((result) => result.subscribers === 100) ?? report.live[report.live.length - 1];
  const targets: [string, string, boolean][] = [
    // The list page against the bare route is in the throughput table, for information: its
    // ratio target is retired (docs/performance.md, "Targets").
    durableTarget(balance ?? undefined, report.ceiling),
    [
      `live update p95 ≤ 50 ms with ${targetLive?.subscribers ?? 100} subscribers` +
        (targetLive?.subscribers === 100 ? '' : ' (100 in a full run)'),
      `${fmt(targetLive?.p95Ms, 1)} ms` +
        (targetLive && targetLive.missing > 0 ? `, ${targetLive.missing} missing` : ''),
      !!targetLive && targetLive.p95Ms <= 50 && targetLive.missing === 0,
    ],
    [
      'first-page JavaScript ≤ 120 KB gzipped (signed in)',
      `${fmt(report.bundle.signedIn.gzipBytes / 1024, 1)} KB`,
      report.bundle.signedIn.gzipBytes <= 120 * 1024,
    ],
    ...heavyTargets(report.heavy),
    ...largeOwnerTargets(report.large, idle),
    pdfTarget(report.pdfs),
    ...pdfMemoryTargets(report.pdfs),
    ...hostileTargets(report.hostile),
    ...(list && balanceRow
      ? ([
          [
            `list page ≥ json-server's (${fmt(report.versus.clients)} clients)`,
            `${fmt(list.okPerSecond / report.versus.list.okPerSecond, 2)} ×`,
            list.okPerSecond >= report.versus.list.okPerSecond,
          ],
          [
            `balance changes ≥ json-server's (${fmt(report.versus.clients)} clients)`,
            `${fmt(balanceRow.okPerSecond / report.versus.balance.okPerSecond, 2)} ×`,
            balanceRow.okPerSecond >= report.versus.balance.okPerSecond,
          ],
        ] as [string, string, boolean][])
      : []),
    ['start to first answer ≤ 1 s', `${fmt(startMedian)} ms`, startMedian <= 1000],
    [
      'idle memory ≤ 100 MB',
      `${fmt(report.memory.idleMb, 1)} MB`,
      report.memory.idleMb !== null && report.memory.idleMb <= 100,
    ],
  ];
  out('## targets');
  for (const line of table(
    ['target', 'measured', 'result'],
    targets.map(([name, value, pass]) => [name, value, pass ? 'PASS' : 'MISS']),
  ))
    out(line);
}

/** The health probe during one owner's heavy requests, beside the idle probe. */
function printHeavy({ idle, results: heavy }: Report['heavy']): void {
  out("## One owner's heavy requests: GET /api/health probed one request at a time meanwhile");
  for (const line of table(
    [
      'during',
      'runs',
      'took s',
      'MB sent',
      'probes',
      'p50 ms',
      'p99 ms',
      'max ms',
      'p99 × idle',
      'RSS before → peak MB',
    ],
    [
      [
        'nothing (idle)',
        '–',
        '–',
        '–',
        fmt(idle.samples),
        fmt(idle.p50Ms, 2),
        fmt(idle.p99Ms, 2),
        fmt(idle.maxMs, 2),
        '1',
        '–',
      ],
      ...heavy.map((result) => [
        result.name,
        fmt(result.runs),
        fmt(result.durationMs / 1000, 1),
        fmt(result.bytes / 2 ** 20, 1),
        fmt(result.probe.samples),
        fmt(result.probe.p50Ms, 2),
        fmt(result.probe.p99Ms, 2),
        fmt(result.probe.maxMs, 2),
        fmt(result.probe.p99Ms / idle.p99Ms, 2),
        `${fmt(result.rssBeforeMb, 1)} → ${fmt(result.rssPeakMb, 1)}`,
      ]),
    ],
  ))
    out(line);
  out();
}

/**
 * Durable balance changes at least 1,000/s over HTTP, every answer a 2xx, shown as a fraction of
 * this machine's own ceiling measured in the same run (sqlite-ceiling.ts): the rate alone says as
 * much about the disk as about Balance.
 */
function durableTarget(
  balance: LoadResult | undefined,
  ceiling: SqliteCeiling,
): [string, string, boolean] {
  const rate = balance?.okPerSecond ?? NaN;
  const refused = balance ? balance.non2xx + balance.errors : 0;
  return [
    'durable balance changes ≥ 1,000/s',
    `${fmt(rate)}/s: ${fmt((100 * rate) / ceiling.singlePerSecond, 1)} % of this machine's ` +
      `${fmt(ceiling.singlePerSecond)} single commits/s, ` +
      `${fmt((100 * rate) / ceiling.groupsOfTenPerSecond, 1)} % of its ` +
      `${fmt(ceiling.groupsOfTenPerSecond)}/s in groups of 10` +
      (refused > 0 ? `, ${fmt(refused)} not 2xx` : ''),
    rate >= 1000 && refused === 0,
  ];
}

/** The heavy requests' targets: the probe's p99 during each, and the exports' memory growth. */
function heavyTargets({ idle, results: heavy }: Report['heavy']): [string, string, boolean][] {
  return heavy.flatMap((result): [string, string, boolean][] => {
    const ratio = result.probe.p99Ms / idle.p99Ms;
    const growth = (result.rssPeakMb ?? NaN) - (result.rssBeforeMb ?? NaN);
    const rows: [string, string, boolean][] = [
      [
        `health p99 during the ${result.name} ≤ 3 × idle`,
        `${fmt(ratio, 2)} × (${fmt(result.probe.p99Ms, 2)} vs ${fmt(idle.p99Ms, 2)} ms)`,
        ratio <= 3,
      ],
    ];
    if (!result.name.startsWith('import'))
      rows.push([
        `server memory growth during the ${result.name} < 100 MB`,
        `${fmt(growth, 1)} MB`,
        growth < 100,
      ]);
    return rows;
  });
}

/** The large owner's figures: ageing and the overdue filter, searches, health meanwhile. */
function printLargeOwner(large: LargeOwnerResult, idle: ProbeResult): void {
  out(
    `## One owner with ${fmt(large.clients)} clients and ${fmt(large.entries)} ledger entries ` +
      `(seeded in ${fmt(large.seedMs / 1000, 1)} s)`,
  );
  for (const line of table(
    ['request', 'cold ms', 'warm ms', 'after a change ms'],
    large.timed.map((row) => [
      row.name,
      fmt(row.coldMs, 1),
      fmt(row.warmMs, 1),
      fmt(row.recomputedMs, 1),
    ]),
  ))
    out(line);
  out(
    'cold: the first request after seeding; warm: the same again; after a change: the first ' +
      'request after a payment was recorded (worked out again; median of three)',
  );
  const { dashboards } = large;
  out(
    `overview after a change, five dashboards open while payments arrive: ` +
      `${fmt(dashboards.samples)} answers over ${fmt(dashboards.payments)} payments, ` +
      `p50 ${fmt(dashboards.p50Ms, 1)} ms, p95 ${fmt(dashboards.p95Ms, 1)} ms, ` +
      `max ${fmt(dashboards.maxMs, 1)} ms`,
  );
  out();
  for (const line of table(
    ['search (never asked before)', 'ms', 'matches'],
    large.searches.map((search) => [`?q=${search.text}`, fmt(search.ms, 1), fmt(search.count)]),
  ))
    out(line);
  const { parallel } = large;
  out(
    `twenty different searches at once: ${fmt(parallel.durationMs, 0)} ms for all; ` +
      `GET /api/health meanwhile: ${fmt(parallel.probe.samples)} probes, ` +
      `p50 ${fmt(parallel.probe.p50Ms, 2)} ms, p99 ${fmt(parallel.probe.p99Ms, 2)} ms ` +
      `(${fmt(parallel.probe.p99Ms / idle.p99Ms, 2)} × the idle p99 of ${fmt(idle.p99Ms, 2)} ms), ` +
      `max ${fmt(parallel.probe.maxMs, 2)} ms`,
  );
  out();
}

/** The large owner (step 10), then the client with a very long ledger, on the same server. */
async function largeData(
  server: { url: string; pid: number },
  dbFile: string,
  random: () => number,
): Promise<{ large: LargeOwnerResult; long: LongLedgerResult }> {
  const large = await largeOwner({
    baseUrl: server.url,
    serverPid: server.pid,
    dbFile,
    clients: largeClients,
    entries: largeEntries,
    random,
    log,
  });
  const long = await longLedger({ baseUrl: server.url, dbFile, entries: longEntries, random, log });
  return { large, long };
}

/** Another owner's one-page PDF while one owner downloads large ones (statement-pdfs.ts). */
function measurePdfs(
  server: { url: string; pid: number },
  dbFile: string,
  random: () => number,
): Promise<StatementPdfsResult> {
  return statementPdfs({
    baseUrl: server.url,
    serverPid: server.pid,
    dbFile,
    entries: longEntries,
    samples: quick ? 5 : 20,
    random,
    log,
  });
}

/** A table row of `name`, its count of samples and its p50, p95 and p99 in milliseconds. */
function percentileRow(name: string, times: Percentiles, digits: number): string[] {
  return [
    name,
    fmt(times.samples),
    fmt(times.p50Ms, digits),
    fmt(times.p95Ms, digits),
    fmt(times.p99Ms, digits),
  ];
}

function printPdfs(pdfs: StatementPdfsResult): void {
  out(`## Statement PDFs: another owner's one page while one owner downloads large ones`);
  const row = (name: string, times: Percentiles) => percentileRow(name, times, 0);
  for (const line of table(
    ["other owner's one-page PDF", 'samples', 'p50 ms', 'p95 ms', 'p99 ms'],
    [
      row('alone', pdfs.alone),
      row(`beside ${fmt(pdfs.largeAtATime)} large PDFs at a time`, pdfs.beside),
    ],
  ))
    out(line);
  out(
    `a large PDF: ${fmt(pdfs.entries)} entries, ${fmt(pdfs.largeAloneMs)} ms alone. Server memory: ` +
      `${fmt(pdfs.beforeMb, 1)} MB before the large ones, ${fmt(pdfs.peakMb, 1)} MB at most while ` +
      `they were made (${signedMb(pdfs.peakMb, pdfs.beforeMb)}), ${fmt(pdfs.minuteAfterMb, 1)} MB ` +
      `a minute after (${signedMb(pdfs.minuteAfterMb, pdfs.beforeMb)})`,
  );
  out();
}

/** The felt runs: SQLite on the bench's server, then PostgreSQL on one of its own, if there. */
async function feltRuns(
  server: { url: string },
  dbFile: string,
  random: () => number,
): Promise<{ results: FeltLatencyResult[]; postgresSkipped: string | null }> {
  log('felt latency: the long ledger for the PDF, seeded and exported once');
  const ledgerFile = await longLedgerFile({
    baseUrl: server.url,
    dbFile,
    entries: longEntries,
    random,
  });
  const results: FeltLatencyResult[] = [];
  const runOn = async (baseUrl: string, database: string) => {
    for (const heavy of ['import', 'pdf'] as const) {
      log(
        `felt latency (${database}): one owner clicking, quiet, then beside 50 owners and ${heavy}s`,
      );
      const options: FeltLatencyOptions = {
        baseUrl,
        database,
        heavy,
        random,
        seconds: Math.max(5, load.durationSeconds),
        clients: clientCount,
        otherOwners: 50,
        importRows: quick ? 2_000 : 20_000,
        ledgerFile,
        ledgerEntries: longEntries,
      };
      results.push(await measureFeltLatency(options));
    }
  };
  await runOn(server.url, 'SQLite');
  const database = await createThrowawayDatabase(postgresUrl, quick ? 1000 : 3000);
  if ('skipped' in database) {
    log(`felt latency on PostgreSQL skipped: ${database.skipped}`);
    return { results, postgresSkipped: database.skipped };
  }
  cleanups.push(() => database.drop());
  const env = { ...serverEnv, DATABASE_URL: database.url };
  const instance = await startNode(
    'felt (PostgreSQL)',
    serverScript,
    env,
    '/api/health',
    serverNodeFlags,
  );
  cleanups.push(() => instance.stop());
  await runOn(instance.url, 'PostgreSQL');
  await instance.stop();
  await database.drop();
  return { results, postgresSkipped: null };
}

const feltPass = (times: Percentiles, failures: number) => times.p95Ms <= 50 && failures === 0;

function printFelt(felt: { results: FeltLatencyResult[]; postgresSkipped: string | null }): void {
  const [first] = felt.results;
  out(
    `## One owner's list page and payments, beside ${fmt(first?.otherOwners)} owners at a request ` +
      'a second and one making heavy requests one after another',
  );
  const pair = (times: Percentiles) => `${fmt(times.p50Ms, 1)} / ${fmt(times.p95Ms, 1)}`;
  for (const line of table(
    [
      'database',
      'heavy request',
      'list quiet p50/p95 ms',
      'payment quiet',
      'list busy',
      'payment busy',
      'busy samples',
      'heavy done',
      'list · payment',
    ],
    felt.results.map((result) => [
      result.database,
      result.heavy === 'import'
        ? `import of ${fmt(result.heavySize)} rows`
        : `PDF of ${fmt(result.heavySize)} entries`,
      pair(result.quiet.list),
      pair(result.quiet.payment),
      pair(result.busy.list),
      pair(result.busy.payment),
      fmt(result.busy.payment.samples),
      fmt(result.heavyDone),
      (['list', 'payment'] as const)
        .map((kind) => (feltPass(result.busy[kind], result.failures) ? 'PASS' : 'MISS'))
        .join(' · '),
    ]),
    2,
  ))
    out(line);
  const failures = felt.results.reduce((sum, result) => sum + result.failures, 0);
  out(
    `${fmt(failures)} requests of the other owners and the heavy one not 2xx; target p95 ≤ 50 ms`,
  );
  if (felt.postgresSkipped !== null) out(`PostgreSQL skipped: ${felt.postgresSkipped}`);
  out();
}

/** Issue 41's first target: what one owner feels while the instance is busy with others. */
function feltTargets(results: FeltLatencyResult[]): [string, string, boolean][] {
  return results.flatMap((result) =>
    (['list', 'payment'] as const).map((kind): [string, string, boolean] => [
      `one owner's ${kind === 'list' ? 'list page' : 'payment'} p95 ≤ 50 ms beside 50 owners and ` +
        `${result.heavy === 'import' ? 'imports' : 'large PDFs'} (${result.database})`,
      `${fmt(result.busy[kind].p95Ms, 1)} ms (quiet ${fmt(result.quiet[kind].p95Ms, 1)} ms)` +
        (result.failures > 0 ? `, ${fmt(result.failures)} other requests not 2xx` : ''),
      feltPass(result.busy[kind], result.failures),
    ]),
  );
}

/** Hostile 4 MB statements from one owner, another owner's list meanwhile (hostile-statement.ts). */
function measureHostile(server: { url: string; pid: number }): Promise<HostileStatementResult> {
  return hostileStatements({
    baseUrl: server.url,
    serverPid: server.pid,
    runs: quick ? 2 : 5,
    log,
  });
}

/**
 * The list page at a small and a large book on both databases; beside the build of
 * $BENCH_BEFORE_COMMIT when given (bundled from this checkout's history, as the earlier build).
 */
async function listPages(dir: string) {
  const builds = [{ name: 'this build', script: serverScript }];
  const before = process.env.BENCH_BEFORE_COMMIT;
  if (before) {
    const built = buildServerAt(before, path.join(dir, 'before-build'));
    if ('skipped' in built) log(`list page: the build of ${before} skipped: ${built.skipped}`);
    else builds.unshift({ name: before.slice(0, 7), script: built.script });
  }
  return measureListPages({
    builds,
    sizes: [2_000, largeClients],
    dir,
    postgres: () => createThrowawayDatabase(postgresUrl, quick ? 1000 : 3000),
    env: serverEnv,
    nodeFlags: serverNodeFlags,
    load: { connections: 10, durationSeconds: quick ? 3 : 5, warmupSeconds: 1 },
    rounds: 2,
    log,
  });
}

/** The last commit before books (decision 044): what the book scope's cost is measured against. */
const beforeBooksCommit = 'eb68e0ac707460707a20eda80294b5b9abbf3d14';

/**
 * The list page and payments at 2,000 clients on both databases, this build beside the last
 * build before books, their runs alternating (issue 58: the book scope costs at most 10 %).
 */
async function bookScope(dir: string) {
  const built = buildServerAt(beforeBooksCommit, path.join(dir, 'before-books'));
  if ('skipped' in built) return { skipped: built.skipped };
  return measureListPages({
    builds: [
      { name: beforeBooksCommit.slice(0, 7), script: built.script },
      { name: 'this build', script: serverScript },
    ],
    sizes: [2_000],
    dir,
    postgres: () => createThrowawayDatabase(postgresUrl, quick ? 1000 : 3000),
    env: serverEnv,
    nodeFlags: serverNodeFlags,
    load: { connections: 10, durationSeconds: quick ? 3 : 5, warmupSeconds: 2 },
    rounds: quick ? 3 : 5,
    payments: true,
    log,
  });
}

/** The middle run: one run slowed by the other server's work (or the machine's) moves it least. */
const median = (values: number[]) => {
  const sorted = values.toSorted((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
};

function printBookScope(scope: Awaited<ReturnType<typeof bookScope>>): void {
  out('## The book scope: list page of 50 and payments, 10 connections, 2,000 clients');
  if ('skipped' in scope) {
    out(`Not measured: the build before books is not here (${scope.skipped}).`);
    out();
    return;
  }
  out(
    `This build beside ${beforeBooksCommit.slice(0, 7)} (the last before books), runs alternating.`,
  );
  for (const line of table(
    ['build', 'database', 'list requests/s', 'list p50 ms', 'payments/s', 'payment p50 ms'],
    scope.rows.map((row) => [
      row.build,
      row.database,
      row.runs.map((run) => fmt(run.okPerSecond)).join(', '),
      row.runs.map((run) => fmt(run.p50Ms)).join(', '),
      row.paymentRuns.map((run) => fmt(run.okPerSecond)).join(', '),
      row.paymentRuns.map((run) => fmt(run.p50Ms)).join(', '),
    ]),
    2,
  ))
    out(line);
  if (scope.postgresSkipped !== null) out(`PostgreSQL skipped: ${scope.postgresSkipped}`);
  out();
}

/** This build's median rate at least 90 % of the build before books', list and payments. */
function bookScopeTargets(
  scope: Awaited<ReturnType<typeof bookScope>>,
): [string, string, boolean][] {
  if ('skipped' in scope) return [];
  const targets: [string, string, boolean][] = [];
  for (const database of ['SQLite', 'PostgreSQL'] as const) {
    const mine = scope.rows.find((row) => row.database === database && row.build === 'this build');
    const before = scope.rows.find(
      (row) => row.database === database && row.build !== 'this build',
    );
    if (!mine || !before) continue;
    for (const [what, rates] of [
      ['list page', (row: ListPageRow) => row.runs],
      ['payments', (row: ListPageRow) => row.paymentRuns],
    ] as const) {
      const ratio =
        median(rates(mine).map((run) => run.okPerSecond)) /
        median(rates(before).map((run) => run.okPerSecond));
      targets.push([
        `book scope: ${what} ≥ 0.9 × ${before.build}'s (${database})`,
        `${fmt(ratio, 2)} ×`,
        ratio >= 0.9,
      ]);
    }
  }
  return targets;
}

const listRate = (row: ListPageRow) => Math.max(...row.runs.map((run) => run.okPerSecond));

function printListPages(pages: { rows: ListPageRow[]; postgresSkipped: string | null }): void {
  out("## The list page of 50 (GET /api/clients?limit=50), 10 connections: one owner's book");
  out('Requests per second and p50 of each run; the builds alternate, on the same machine.');
  for (const line of table(
    ['build', 'database', 'clients', 'requests/s', 'p50 ms'],
    pages.rows.map((row) => [
      row.build,
      row.database,
      fmt(row.clients),
      row.runs.map((run) => fmt(run.okPerSecond)).join(', '),
      row.runs.map((run) => fmt(run.p50Ms)).join(', '),
    ]),
    3,
  ))
    out(line);
  if (pages.postgresSkipped !== null) out(`PostgreSQL skipped: ${pages.postgresSkipped}`);
  out();
}

/** The large book's page at about the small one's rate; with a build before, 3 × its rate. */
function listPageTargets(rows: ListPageRow[]): [string, string, boolean][] {
  const targets: [string, string, boolean][] = [];
  for (const database of ['SQLite', 'PostgreSQL'] as const) {
    const mine = rows.filter((row) => row.database === database && row.build === 'this build');
    const [small, large] = [mine[0], mine[mine.length - 1]];
    if (!small || !large || small === large) continue;
    const ratio = listRate(large) / listRate(small);
    targets.push([
      `list page at ${fmt(large.clients)} clients ≈ at ${fmt(small.clients)} (${database})`,
      `${fmt(ratio, 2)} ×`,
      ratio >= 0.7,
    ]);
    for (const row of mine) {
      const before = rows.find(
        (other) =>
          other.database === database && other.clients === row.clients && other.build !== row.build,
      );
      if (!before) continue;
      const gain = listRate(row) / listRate(before);
      targets.push([
        `list page ≥ 3 × ${before.build}'s (${database}, ${fmt(row.clients)} clients)`,
        `${fmt(gain, 2)} ×`,
        gain >= 3,
      ]);
    }
  }
  return targets;
}

function printHostile(hostile: HostileStatementResult): void {
  out("## Hostile 4 MB statements: one owner's previews, another owner's list meanwhile");
  const shapes = [...new Set(hostile.uploads.map((upload) => upload.shape))];
  for (const line of table(
    ['statement', 'uploads', 'slowest ms', 'answer'],
    shapes.map((shape) => {
      const uploads = hostile.uploads.filter((upload) => upload.shape === shape);
      const first = uploads[0];
      return [
        shape,
        fmt(uploads.length),
        fmt(Math.max(...uploads.map((upload) => upload.ms))),
        `${first?.status ?? ''} ${first?.message ?? ''}`,
      ];
    }),
  ))
    out(line);
  out();
  for (const line of table(
    ["other owner's GET /api/clients", 'samples', 'p50 ms', 'p95 ms', 'p99 ms'],
    [
      percentileRow('idle', hostile.idle, 1),
      percentileRow('during the uploads', hostile.during, 1),
    ],
  ))
    out(line);
  out(
    `Server memory: ${fmt(hostile.rssBeforeMb, 1)} MB before, ${fmt(hostile.rssPeakMb, 1)} MB ` +
      'at most during the uploads.',
  );
  out();
}

function hostileTargets(hostile: HostileStatementResult): [string, string, boolean][] {
  const slowest = Math.max(...hostile.uploads.map((upload) => upload.ms));
  const grown =
    hostile.rssBeforeMb === null || hostile.rssPeakMb === null
      ? NaN
      : hostile.rssPeakMb - hostile.rssBeforeMb;
  return [
    [
      'hostile 4 MB statement refused (400) in < 1 s, server rss < +100 MB',
      `slowest ${fmt(slowest)} ms, rss +${fmt(grown, 1)} MB`,
      hostile.uploads.every((upload) => upload.status === 400) && slowest < 1000 && grown < 100,
    ],
    [
      "another owner's GET /api/clients p95 ≤ 100 ms during hostile statements",
      `${fmt(hostile.during.p95Ms, 1)} ms (idle ${fmt(hostile.idle.p95Ms, 1)} ms)`,
      hostile.during.p95Ms <= 100,
    ],
  ];
}

/** The reminder sender's minute with few owners, then with many (reminder-sender.ts). */
async function measureReminderSender(random: () => number): Promise<ReminderSenderResult[]> {
  const sizes = quick
    ? [
        { owners: 10, entriesPerOwner: 100 },
        { owners: 100, entriesPerOwner: 100 },
      ]
    : [
        { owners: 10, entriesPerOwner: 1_000 },
        { owners: 1_000, entriesPerOwner: 1_000 },
      ];
  const results: ReminderSenderResult[] = [];
  for (const size of sizes)
    results.push(await reminderSenderMinute({ ...size, minutes: quick ? 5 : 10, random, log }));
  return results;
}

function printReminderSender(results: ReminderSenderResult[]): void {
  out("## The reminder sender's minute, nothing due: few owners and many");
  for (const line of table(
    ['owners', 'entries', 'first run ms', 'minutes', 'minute p50 ms', 'minute max ms'],
    results.map((result) => [
      fmt(result.owners),
      fmt(result.entries),
      fmt(result.firstRunMs, 1),
      fmt(result.minutes.samples),
      fmt(result.minutes.p50Ms, 1),
      fmt(result.minutes.p99Ms, 1),
    ]),
  ))
    out(line);
  out();
}

/** The minute at the most owners costs at most twice (and 5 ms) the minute at the fewest. */
function reminderSenderTarget(results: ReminderSenderResult[]): [string, string, boolean] {
  const few = results[0];
  const many = results.at(-1);
  const fewMs = few?.minutes.p50Ms ?? Number.NaN;
  const manyMs = many?.minutes.p50Ms ?? Number.NaN;
  return [
    `the reminder sender's minute the same at ${fmt(few?.owners)} and ${fmt(many?.owners)} owners`,
    `${fmt(fewMs, 1)} ms and ${fmt(manyMs, 1)} ms (p50)`,
    manyMs <= Math.max(2 * fewMs, fewMs + 5),
  ];
}

/** How far `mb` is from `from`, as +12.3 MB; "?" when either was not read. */
function signedMb(mb: number | null, from: number | null): string {
  if (mb === null || from === null) return '? MB';
  const difference = mb - from;
  return `${difference >= 0 ? '+' : ''}${fmt(difference, 1)} MB`;
}

function pdfMemoryTargets(pdfs: StatementPdfsResult): [string, string, boolean][] {
  const grew = pdfs.peakMb !== null && pdfs.beforeMb !== null ? pdfs.peakMb - pdfs.beforeMb : null;
  const kept =
    pdfs.minuteAfterMb !== null && pdfs.beforeMb !== null
      ? pdfs.minuteAfterMb - pdfs.beforeMb
      : null;
  return [
    [
      `server memory ≤ +200 MB while ${fmt(pdfs.largeAtATime)} large PDFs are made at once`,
      signedMb(pdfs.peakMb, pdfs.beforeMb),
      grew !== null && grew <= 200,
    ],
    [
      'server memory within 50 MB of the start a minute after',
      signedMb(pdfs.minuteAfterMb, pdfs.beforeMb),
      kept !== null && kept <= 50,
    ],
  ];
}

function pdfTarget(pdfs: StatementPdfsResult): [string, string, boolean] {
  return [
    `another owner's one-page PDF p95 ≤ 2 s beside large ones (${fmt(pdfs.entries)} entries)`,
    `${fmt(pdfs.beside.p95Ms)} ms (p99 ${fmt(pdfs.beside.p99Ms)} ms)`,
    pdfs.beside.p95Ms <= 2000,
  ];
}

/** Payments on one client with a long ledger, and another owner's payments meanwhile. */
function printLongLedger(long: LongLedgerResult): void {
  out(`## Payments on one client with ${fmt(long.entries)} ledger entries`);
  const row = (name: string, times: LongLedgerResult['asSeeded']) => [
    name,
    fmt(times.unpaid),
    fmt(times.loops),
    fmt(times.ownMs, 2),
    fmt(times.otherP50Ms, 2),
    fmt(times.otherP99Ms, 2),
    `${fmt(times.otherP99Ms / long.idle.p99Ms, 2)} ×`,
  ];
  for (const line of table(
    [
      'ledger',
      'unpaid entries',
      'paid at a time',
      'a payment ms',
      "other's p50 ms",
      "other's p99 ms",
      'p99 × idle',
    ],
    [
      row('as seeded', long.asSeeded),
      row('as seeded, flooded', long.flooded),
      row('paid down to a few', long.mostlyPaid),
      row('one entry (for the load alone)', long.oneEntry),
    ],
  ))
    out(line);
  out(
    'a payment: one at a time on the long ledger (median of 100). other: another owner pays one ' +
      'client after another (200 payments) while loops pay the long ledger, each sending its next ' +
      'payment on its answer ("paid at a time"); with nothing ' +
      `else running its p50 is ${fmt(long.idle.p50Ms, 2)} ms and its p99 ${fmt(long.idle.p99Ms, 2)} ms`,
  );
  out();
}

function largeOwnerTargets(
  large: LargeOwnerResult,
  idle: ProbeResult,
): [string, string, boolean][] {
  const slowest = (row: LargeOwnerResult['timed'][number]) =>
    Math.max(row.coldMs, row.warmMs, row.recomputedMs);
  const ratio = large.parallel.probe.p99Ms / idle.p99Ms;
  return [
    ...large.timed.map((row): [string, string, boolean] => [
      `${row.name.split(':')[0] ?? row.name} < ${row.limitMs < 1000 ? `${row.limitMs} ms` : '1 s'} ` +
        `(${fmt(large.clients)} clients, ${fmt(large.entries)} entries)`,
      `${fmt(slowest(row), 1)} ms at most`,
      slowest(row) < row.limitMs,
    ]),
    [
      'overview after a change < 100 ms (p95, five dashboards open while payments arrive)',
      `${fmt(large.dashboards.p95Ms, 1)} ms`,
      large.dashboards.p95Ms < 100,
    ],
    [
      'health p99 during twenty searches at once ≤ 3 × idle',
      `${fmt(ratio, 2)} × (${fmt(large.parallel.probe.p99Ms, 2)} vs ${fmt(idle.p99Ms, 2)} ms)`,
      ratio <= 3,
    ],
  ];
}

/** Balance beside json-server: the same list page and the same balance changes, same load. */
function printVersus(versus: VersusResult, balance: { list: LoadResult; balance: LoadResult }) {
  out(
    `## Beside json-server: ${fmt(versus.clients)} clients (its file ${fmt(versus.fileMb, 1)} MB, ` +
      `its idle memory ${fmt(versus.idleMb, 1)} MB)`,
  );
  for (const line of table(
    ['workload', 'Balance 2xx/s', 'json-server 2xx/s', 'Balance ÷ json-server', 'p99 ms (B / j)'],
    (
      [
        ['list: first page of 50', balance.list, versus.list],
        ['balance change', balance.balance, versus.balance],
      ] as const
    ).map(([name, ours, theirs]) => [
      name,
      fmt(ours.okPerSecond),
      fmt(theirs.okPerSecond),
      fmt(ours.okPerSecond / theirs.okPerSecond, 2),
      `${fmt(ours.p99Ms)} / ${fmt(theirs.p99Ms)}`,
    ]),
  ))
    out(line);
  out(
    "Balance's list page also carries the count and the totals per currency and checks the " +
      "session; its balance change is durable (synced) when answered, json-server's is not " +
      '(it rewrites its whole file, unsynced, after each change).',
  );
  out();
}

/** `--only earlier`: today's balance changes beside the earlier build's. */
function printEarlier(balance: LoadResult, earlier: EarlierResult): void {
  out(`## Durable balance changes, beside the build of ${earlierCommitShort}`);
  const rows: Row[] = [{ name: 'Balance', result: balance }, ...earlierRows(earlier)];
  for (const line of table(
    ['server', '2xx/s', 'p50 ms', 'p99 ms', 'non-2xx', 'errors'],
    rows.map(({ name, result }) => [
      name,
      fmt(result?.okPerSecond),
      fmt(result?.p50Ms),
      fmt(result?.p99Ms),
      fmt(result?.non2xx),
      fmt(result?.errors),
    ]),
  ))
    out(line);
  out();
}

/** `--only`: the server just started, and only the parts asked for. */
async function runOnly(
  parts: OnlyPart[],
  server: { url: string; pid: number },
  dbFile: string,
  dateText: string,
): Promise<void> {
  const random = seededRandom(20261121);
  const sections: (() => void)[] = [];
  const targets: [string, string, boolean][] = [];
  if (parts.includes('heavy')) {
    const heavy = await heavyRequests(server.url, server.pid, dbFile, random);
    sections.push(() => printHeavy(heavy));
    targets.push(...heavyTargets(heavy));
  }
  if (parts.includes('large-owner')) {
    log('health probe on the idle server');
    const idle = await probeIdle(server.url, quick ? 2000 : 5000);
    const { large, long } = await largeData(server, dbFile, random);
    sections.push(() => printLargeOwner(large, idle));
    sections.push(() => printLongLedger(long));
    targets.push(...largeOwnerTargets(large, idle));
  }
  /** A new owner with the bench's clients, and Balance's balance changes over them. */
  const newOwner = async () => {
    const { cookie, bookId } = await joinOwner(server.url);
    const seeded = seedClients({ file: dbFile, bookId, count: clientCount, random });
    const queue = new Fifo<TrackedClient>(seeded.map((id) => ({ id, version: 1 })));
    const json = { cookie, 'content-type': 'application/json' };
    const runBalance = async () => {
      log('load: Balance balance change');
      const requests = balanceChanges(queue, json);
      return requireSuccess('balance change', await measure(server.url, { requests }, load));
    };
    return { cookie, bookId, runBalance };
  };
  if (parts.includes('felt')) {
    const felt = await feltRuns(server, dbFile, random);
    sections.push(() => printFelt(felt));
    targets.push(...feltTargets(felt.results));
  }
  if (parts.includes('pdf')) {
    const pdfs = await measurePdfs(server, dbFile, random);
    sections.push(() => printPdfs(pdfs));
    targets.push(pdfTarget(pdfs), ...pdfMemoryTargets(pdfs));
  }
  if (parts.includes('reminders')) {
    const minutes = await measureReminderSender(random);
    sections.push(() => printReminderSender(minutes));
    targets.push(reminderSenderTarget(minutes));
  }
  if (parts.includes('list-page')) {
    const pages = await listPages(path.dirname(dbFile));
    sections.push(() => printListPages(pages));
    targets.push(...listPageTargets(pages.rows));
  }
  if (parts.includes('book-scope')) {
    const scope = await bookScope(path.dirname(dbFile));
    sections.push(() => printBookScope(scope));
    targets.push(...bookScopeTargets(scope));
  }
  if (parts.includes('hostile')) {
    const hostile = await measureHostile(server);
    sections.push(() => printHostile(hostile));
    targets.push(...hostileTargets(hostile));
  }
  if (parts.includes('earlier')) {
    const { runBalance } = await newOwner();
    const { balance, earlier } = await balanceBesideEarlier(path.dirname(dbFile), runBalance);
    log("sqlite ceiling: a payment's own writes in node:sqlite, one by one and ten at a time");
    const ceiling = measureSqliteCeiling(path.dirname(dbFile), load.durationSeconds);
    sections.push(() => printEarlier(balance, earlier));
    targets.push(durableTarget(balance, ceiling));
  }
  if (parts.includes('json-server')) {
    const { cookie, bookId, runBalance } = await newOwner();
    log('load: Balance list');
    const list = requireSuccess(
      'list',
      await measure(server.url, { path: '/api/clients', headers: { cookie } }, load),
    );
    const balance = await runBalance();
    const versus = await measureJsonServer({
      dbFile,
      bookId,
      dir: path.dirname(dbFile),
      load,
      log,
    });
    sections.push(() => printVersus(versus, { list, balance }));
    targets.push(
      [
        `list page ≥ json-server's (${fmt(clientCount)} clients)`,
        `${fmt(list.okPerSecond / versus.list.okPerSecond, 2)} ×`,
        list.okPerSecond >= versus.list.okPerSecond,
      ],
      [
        `balance changes ≥ json-server's (${fmt(clientCount)} clients)`,
        `${fmt(balance.okPerSecond / versus.balance.okPerSecond, 2)} ×`,
        balance.okPerSecond >= versus.balance.okPerSecond,
      ],
    );
  }
  if (parts.includes('live')) {
    const { cookie, bookId } = await joinOwner(server.url);
    const seeded = seedClients({ file: dbFile, bookId, count: liveChanges, random });
    const clients = seeded.map((id) => ({ id, version: 1 }));
    const fileLimits = { bench: openFileLimit('self'), server: openFileLimit(server.pid) };
    const live = await liveOneInstance(server, cookie, clients, fileLimits);
    const across = await acrossInstances();
    sections.push(() => {
      out(
        '## Live updates: committed write (its HTTP answer) to the `change` event at each subscriber',
      );
      out('### One instance (SQLite)');
      for (const line of liveLines(live)) out(line);
      out('### Across two instances (PostgreSQL; streams on instance 2, writes on instance 1)');
      if (typeof across === 'string') out(`skipped: ${across}`);
      else for (const line of liveLines(across)) out(line);
      out();
    });
    for (const [where, results] of [
      ['one instance', live],
      ['across instances', typeof across === 'string' ? [] : across],
    ] as const)
      for (const result of results)
        targets.push([
          `every change reaches all ${fmt(result.subscribers)} subscribers (${where})`,
          `${fmt(result.missing)} missing of ${fmt(result.changes * result.opened)}`,
          result.opened === result.subscribers && result.changes > 0 && result.missing === 0,
        ]);
  }
  out();
  out(`# Balance bench (only ${parts.join(', ')}), ${dateText}`);
  printMachine();
  out();
  for (const section of sections) section();
  out('## targets');
  for (const line of table(
    ['target', 'measured', 'result'],
    targets.map(([name, value, pass]) => [name, value, pass ? 'PASS' : 'MISS']),
  ))
    out(line);
}

try {
  await main();
} catch (error) {
  process.exitCode = 1;
  const describe = (value: unknown): string =>
    value instanceof Error
      ? `${value.stack ?? value.message}${value.cause === undefined ? '' : `\ncaused by: ${describe(value.cause)}`}`
      : String(value);
  // fetch's own errors say only "fetch failed"; the cause names the socket's fault.
  process.stderr.write(`bench failed: ${describe(error)}\n`);
  const output = benchServer.current?.output().trim();
  if (output) process.stderr.write(`the server's last output:\n${output.slice(-4000)}\n`);
} finally {
  await cleanUp();
}
