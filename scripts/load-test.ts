// Load: the real server, many connections of mixed reads and writes for a bounded time, on
// 127.0.0.1 only. Passes with zero errors (no answer outside 2xx but the expected 409s), every
// acknowledged add in the database, and memory flat from after the warm-up to the end.
//
//   node scripts/load-test.ts [--quick] [--duration S] [--connections N]   (npm run test:load)
import { execFileSync, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { parseArgs } from 'node:util';

const projectRoot = path.resolve(import.meta.dirname, '..');

const { values: args } = parseArgs({
  options: {
    quick: { type: 'boolean', default: false },
    duration: { type: 'string' },
    connections: { type: 'string' },
  },
});
const durationSeconds = Number(args.duration ?? (args.quick ? 4 : 60));
const warmupSeconds = args.quick ? 2 : 5;
const connections = Number(args.connections ?? (args.quick ? 20 : 50));
if (
  !(durationSeconds > 0 && durationSeconds <= 3600) ||
  !(connections > 0 && connections <= 1000)
) {
  process.stderr.write(
    'load-test: --duration must be 1 to 3600 seconds, --connections 1 to 1000\n',
  );
  process.exit(2);
}

/** Memory is flat when the end is within this of the level after warm-up. */
const rssFactor = 1.5;
const rssSlackBytes = 50 * 1024 * 1024;

// autocannon ships no types; this is the part of its API used here.
interface RequestData {
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: string;
}
type Context = Record<string, unknown>;
interface AutocannonResult {
  requests: { total: number; average: number };
  latency: { p50: number; p99: number; max: number };
  errors: number;
  timeouts: number;
  statusCodeStats: Record<string, { count: number }>;
}
type Autocannon = (options: {
  url: string;
  connections: number;
  duration: number;
  timeout: number;
  requests: {
    setupRequest: (request: RequestData, context: Context) => RequestData;
    onResponse: (status: number, body: string, context: Context) => void;
  }[];
}) => PromiseLike<AutocannonResult>;
const autocannon = createRequire(import.meta.url)('autocannon') as Autocannon;

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

/** The server's resident memory, from /proc on Linux or from ps elsewhere. */
function rssBytes(pid: number): number {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kilobytes = Number(/VmRSS:\s+(\d+)\s+kB/.exec(status)?.[1]);
    if (kilobytes > 0) return kilobytes * 1024;
  } catch {
    // Not Linux: ask ps below.
  }
  const ps = execFileSync('ps', ['-o', 'rss=', '-p', String(pid)], { encoding: 'utf8' });
  return Number(ps.trim()) * 1024;
}

const megabytes = (bytes: number) => `${Math.round(bytes / (1024 * 1024))} MB`;

interface Known {
  id: string;
  version: number;
}

async function main(): Promise<number> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'balance-load-'));
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  // Loopback only: this script must never send its traffic anywhere else.
  if (new URL(url).hostname !== '127.0.0.1') throw new Error(`refusing to load ${url}`);

  // Warnings and errors only: a log line per request would measure the logger, not the app.
  const child = spawn(process.execPath, ['src/server/main.ts'], {
    cwd: projectRoot,
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATABASE_URL: path.join(dir, 'load.sqlite'),
      LOG_LEVEL: 'warn',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  process.once('exit', () => child.kill('SIGKILL'));
  const serverErrors: string[] = [];
  const collect = (chunk: Buffer) => {
    for (const line of chunk.toString().split('\n')) {
      if (/"level":(50|60)/.test(line)) serverErrors.push(line.slice(0, 300));
    }
  };
  child.stdout.on('data', collect);
  child.stderr.on('data', collect);

  const problems: string[] = [];
  try {
    const started = Date.now();
    for (;;) {
      const health = await fetch(`${url}/api/health`).catch(() => null);
      if (health?.status === 200) break;
      if (child.exitCode !== null || Date.now() - started > 20_000)
        throw new Error('the server did not start');
      await sleep(100);
    }

    const join = await fetch(`${url}/api/auth/join`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'load@example.com', password: 'correct horse battery staple' }),
    });
    if (join.status !== 201) throw new Error(`join answered ${join.status}`);
    const cookie = (join.headers.getSetCookie()[0] ?? '').split(';')[0] ?? '';

    let counter = 0;
    const clientBody = () => {
      counter += 1;
      return JSON.stringify({
        firstName: 'Load',
        lastName: `Test${counter}`,
        email: `load.${counter}@example.com`,
        phone: '+1 555 010 2030',
        balance: counter * 100,
        currency: (['USD', 'KRW', 'CAD', 'MYR'] as const)[counter % 4],
      });
    };
    const known: Known[] = [];
    const seed = 200;
    for (let batch = 0; batch < seed / 20; batch += 1) {
      await Promise.all(
        Array.from({ length: 20 }, async () => {
          const response = await fetch(`${url}/api/clients`, {
            method: 'POST',
            headers: { cookie, 'content-type': 'application/json' },
            body: clientBody(),
          });
          if (response.status !== 201) throw new Error(`seeding answered ${response.status}`);
          known.push((await response.json()) as Known);
        }),
      );
    }

    const refresh = async (target: Known) => {
      try {
        const response = await fetch(`${url}/api/clients/${target.id}`, { headers: { cookie } });
        if (response.ok) target.version = ((await response.json()) as Known).version;
      } catch {
        // The next conflict tries again.
      }
    };
    const tally = { reads: 0, adds: 0, changes: 0 };
    // A fresh object each time: autocannon writes Content-Length into the headers it is given.
    const headers = () => ({ cookie, 'content-type': 'application/json' });
    const reads = [
      '/api/clients?limit=50',
      '/api/clients?sort=balance&dir=desc&limit=20',
      '/api/clients?q=test1&limit=20',
      '/api/clients?owes=true&currency=USD',
    ];
    const run = (seconds: number) =>
      autocannon({
        url,
        connections,
        duration: seconds,
        timeout: 10,
        requests: [
          {
            setupRequest: (request, context) => {
              const roll = Math.random();
              if (roll < 0.6) {
                context.op = 'read';
                return {
                  ...request,
                  method: 'GET',
                  path: reads[Math.floor(roll * 100) % reads.length] ?? '/api/clients',
                  headers: headers(),
                };
              }
              if (roll < 0.8) {
                context.op = 'add';
                return {
                  ...request,
                  method: 'POST',
                  path: '/api/clients',
                  headers: headers(),
                  body: clientBody(),
                };
              }
              const target = known[Math.floor(Math.random() * known.length)] ?? known[0];
              context.op = 'change';
              context.target = target;
              return {
                ...request,
                method: 'PATCH',
                path: `/api/clients/${target?.id ?? ''}/balance`,
                headers: headers(),
                body: JSON.stringify({
                  balance: Math.floor(Math.random() * 1e6),
                  version: target?.version ?? 1,
                }),
              };
            },
            onResponse: (status, body, context) => {
              if (context.op === 'read') tally.reads += 1;
              if (context.op === 'add' && status === 201) {
                tally.adds += 1;
                known.push(JSON.parse(body) as Known);
              }
              if (context.op === 'change') {
                tally.changes += 1;
                const target = context.target as Known | undefined;
                // Learn the version from the answer or, after a conflict, by reading the client.
                if (target && status === 200) target.version = (JSON.parse(body) as Known).version;
                else if (target && status === 409) void refresh(target);
              }
            },
          },
        ],
      });

    const warmup = await run(warmupSeconds);
    const rssAfterWarmup = rssBytes(child.pid ?? 0);
    let rssPeak = rssAfterWarmup;
    const sampler = setInterval(() => {
      rssPeak = Math.max(rssPeak, rssBytes(child.pid ?? 0));
    }, 250);
    const result = await run(durationSeconds);
    clearInterval(sampler);
    const rssAtEnd = rssBytes(child.pid ?? 0);

    const statuses: Record<string, number> = {};
    for (const part of [warmup, result]) {
      for (const [code, { count }] of Object.entries(part.statusCodeStats)) {
        statuses[code] = (statuses[code] ?? 0) + count;
      }
    }
    const unexpected = Object.entries(statuses).filter(
      ([code]) => !/^2\d\d$/.test(code) && code !== '409',
    );
    if (unexpected.length > 0)
      problems.push(
        `answers outside 2xx and 409: ${JSON.stringify(Object.fromEntries(unexpected))}`,
      );
    const errors = warmup.errors + result.errors;
    const timeouts = warmup.timeouts + result.timeouts;
    if (errors > 0 || timeouts > 0)
      problems.push(`${errors} connection errors, ${timeouts} timeouts`);
    if (result.requests.total < durationSeconds * 10)
      problems.push(`only ${result.requests.total} requests in ${durationSeconds} s`);
    if (rssAtEnd > rssAfterWarmup * rssFactor + rssSlackBytes) {
      problems.push(
        `memory grew from ${megabytes(rssAfterWarmup)} after warm-up to ${megabytes(rssAtEnd)} at the end`,
      );
    }

    // Every acknowledged add is there: the list counts the seed and each 201.
    const list = await fetch(`${url}/api/clients?limit=1`, { headers: { cookie } });
    const { count } = (await list.json()) as { count: number };
    const expected = seed + (statuses['201'] ?? 0);
    // Adds in flight when a run ended were never counted; each run ends with at most one per connection.
    if (count < expected || count > expected + 2 * connections) {
      problems.push(`the list holds ${count} clients, ${expected} adds were acknowledged`);
    }
    if (serverErrors.length > 0)
      problems.push(`the server logged errors:\n  ${serverErrors.slice(0, 5).join('\n  ')}`);

    const verdict = problems.length === 0 ? 'PASS' : 'FAIL';
    process.stdout.write(
      `load-test ${verdict}: ${durationSeconds} s after ${warmupSeconds} s warm-up, ${connections} connections to ${url}, ` +
        `${result.requests.total} requests (${Math.round(result.requests.average)}/s, p50 ${result.latency.p50} ms, p99 ${result.latency.p99} ms); ` +
        `overall ${tally.reads} reads, ${tally.adds} adds, ${tally.changes} balance changes (${statuses['409'] ?? 0} conflicts), ` +
        `${errors + timeouts} errors; RSS ${megabytes(rssAfterWarmup)} after warm-up, ${megabytes(rssAtEnd)} at the end, peak ${megabytes(rssPeak)}\n`,
    );
    if (problems.length > 0) process.stdout.write(`${problems.join('\n')}\n`);
  } finally {
    child.kill('SIGTERM');
    await exited;
    await rm(dir, { recursive: true, force: true });
  }
  return problems.length === 0 ? 0 : 1;
}

process.exitCode = await main();
