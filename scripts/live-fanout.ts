// Live fan-out: how much thousands of open live streams of one owner slow that owner's writes.
// Starts the real server (SQLite in a temporary folder, or PostgreSQL with --database URL),
// measures rounds of concurrent writes with no stream open, then opens the streams and measures
// the same rounds again, for long enough that every stream's heartbeat falls inside. Prints both
// p95s and their ratio (one run, one machine), and checks that every stream got every change.
//
//   node scripts/live-fanout.ts [--streams N] [--writes N] [--seconds S] [--heartbeat S]
//                               [--database URL]                       (npm run measure:live-fanout)
import { fork, type ChildProcess } from 'node:child_process';
import http from 'node:http';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { parseArgs } from 'node:util';
import { startServerProcess, stopServer } from '../tests/server-process.ts';

if (process.argv[2] === '--hold')
  await holdStreams(...(process.argv.slice(3) as [string, string, string]));

/**
 * The child process: opens the streams, says how long that took, counts the changes they get
 * and answers each 'count' with the number so far.
 */
async function holdStreams(baseUrl: string, cookie: string, count: string): Promise<never> {
  let changes = 0;
  const open = () =>
    new Promise<void>((resolve, reject) => {
      const url = new URL('/api/events', baseUrl);
      const request = http.get(
        {
          hostname: url.hostname,
          port: url.port,
          path: url.pathname,
          headers: { cookie },
          agent: false,
        },
        (response) => {
          if (response.statusCode !== 200) {
            reject(new Error(`GET /api/events answered ${response.statusCode}`));
            return;
          }
          response.setEncoding('utf8');
          let ready = false;
          response.on('data', (chunk: string) => {
            if (!ready && chunk.includes('event: ready')) {
              ready = true;
              resolve();
            }
            for (
              let at = chunk.indexOf('event: change');
              at >= 0;
              at = chunk.indexOf('event: change', at + 1)
            )
              changes += 1;
          });
          response.on('error', () => {});
        },
      );
      request.on('error', reject);
    });
  const started = performance.now();
  try {
    for (let start = 0; start < Number(count); start += 100)
      await Promise.all(Array.from({ length: Math.min(100, Number(count) - start) }, open));
    process.send?.({ opened: performance.now() - started });
  } catch (error) {
    process.send?.({ error: String(error) });
  }
  process.on('message', () => process.send?.({ changes }));
  return new Promise<never>(() => {});
}

const { values: args } = parseArgs({
  options: {
    streams: { type: 'string', default: '5000' },
    writes: { type: 'string', default: '40' },
    seconds: { type: 'string', default: '20' },
    heartbeat: { type: 'string', default: '15' },
    database: { type: 'string' },
  },
});
const streamCount = Number(args.streams);
const concurrentWrites = Number(args.writes);
const seconds = Number(args.seconds);
if (
  !(Number.isInteger(streamCount) && streamCount >= 1 && streamCount <= 15_000) ||
  !(Number.isInteger(concurrentWrites) && concurrentWrites >= 1 && concurrentWrites <= 500) ||
  !(seconds >= 1 && seconds <= 600)
) {
  process.stderr.write('live-fanout: --streams 1..15000, --writes 1..500, --seconds 1..600\n');
  process.exit(2);
}

function percentile(sorted: number[], fraction: number): number {
  const index = Math.min(sorted.length - 1, Math.max(0, Math.ceil(fraction * sorted.length) - 1));
  return sorted[index] ?? NaN;
}

const folder = await mkdtemp(path.join(os.tmpdir(), 'balance-fanout-'));
const server = await startServerProcess({
  DATABASE_URL: args.database ?? path.join(folder, 'balance.sqlite'),
  LIVE_STREAMS_PER_SESSION: String(streamCount),
  LIVE_STREAMS_PER_OWNER: String(streamCount),
  LIVE_HEARTBEAT_SECONDS: String(args.heartbeat),
  MAX_CONNECTIONS: String(streamCount + 1000),
  MAX_CONNECTIONS_PER_ADDRESS: String(streamCount + 1000),
  SIGN_UPS_PER_ADDRESS_PER_HOUR: '0',
});
const agent = new http.Agent({ keepAlive: true, maxSockets: concurrentWrites });
const holders: ChildProcess[] = [];

try {
  const join = await fetch(`${server.url}/api/auth/join`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      email: `fanout.${Date.now()}@example.com`,
      password: 'correct horse battery staple',
    }),
  });
  if (join.status !== 201) throw new Error(`join answered ${join.status}: ${await join.text()}`);
  const cookie = (join.headers.getSetCookie()[0] ?? '').split(';')[0] ?? '';

  let counter = 0;
  const write = () =>
    new Promise<number>((resolve, reject) => {
      counter += 1;
      const body = JSON.stringify({
        firstName: 'Fan',
        lastName: `Out${counter}`,
        email: `fan.${counter}@example.com`,
        phone: '+44 20 7946 0018',
        balance: 100,
        currency: 'USD',
      });
      const started = performance.now();
      const url = new URL('/api/clients', server.url);
      const request = http.request(
        {
          hostname: url.hostname,
          port: url.port,
          path: url.pathname,
          method: 'POST',
          agent,
          headers: {
            cookie,
            'content-type': 'application/json',
            'content-length': Buffer.byteLength(body),
          },
        },
        (response) => {
          response.resume();
          response.on('end', () => {
            if (response.statusCode === 201) resolve(performance.now() - started);
            else reject(new Error(`add answered ${response.statusCode}`));
          });
        },
      );
      request.on('error', reject);
      request.end(body);
    });

  /** Rounds of `concurrentWrites` adds at once, back to back, for `seconds`. */
  const measure = async () => {
    const latencies: number[] = [];
    const end = performance.now() + seconds * 1000;
    let rounds = 0;
    while (performance.now() < end) {
      latencies.push(...(await Promise.all(Array.from({ length: concurrentWrites }, write))));
      rounds += 1;
    }
    latencies.sort((a, b) => a - b);
    return {
      rounds,
      writes: latencies.length,
      p50: percentile(latencies, 0.5),
      p95: percentile(latencies, 0.95),
    };
  };

  // Warm the server up (compiled queries, the worker threads) before anything counts.
  for (let i = 0; i < 3; i += 1) await Promise.all(Array.from({ length: concurrentWrites }, write));
  const without = await measure();

  // The streams are held by another process, so reading them does not delay this one's timings.
  const holder = fork(import.meta.filename, ['--hold', server.url, cookie, String(streamCount)], {
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  holders.push(holder);
  const messages: { opened?: number; changes?: number; error?: string }[] = [];
  let notify = () => {};
  holder.on('message', (message: { opened?: number; changes?: number; error?: string }) => {
    messages.push(message);
    notify();
  });
  const nextMessage = async () => {
    while (messages.length === 0) await new Promise<void>((resolve) => (notify = resolve));
    const message = messages.shift() ?? {};
    if (message.error) throw new Error(message.error);
    return message;
  };
  const opened = await nextMessage();
  const openSeconds = (opened.opened ?? 0) / 1000;

  const before = counter;
  const withStreams = await measure();
  // Give the last fan-out time to arrive before counting what every stream received.
  const expected = (counter - before) * streamCount;
  let changesSeen = 0;
  for (let waited = 0; changesSeen < expected && waited < 30_000; waited += 200) {
    holder.send('count');
    changesSeen = (await nextMessage()).changes ?? 0;
    if (changesSeen < expected) await sleep(200);
  }

  const line = (name: string, result: Awaited<ReturnType<typeof measure>>) =>
    `${name}: ${result.writes} writes in ${result.rounds} rounds, p50 ${result.p50.toFixed(0)} ms, p95 ${result.p95.toFixed(0)} ms`;
  process.stdout.write(
    [
      `live fan-out: ${concurrentWrites} concurrent adds for ${seconds} s each, heartbeat ${args.heartbeat} s, ${args.database ? 'PostgreSQL' : 'SQLite'}`,
      line('  no stream open', without),
      line(`  ${streamCount} streams open`, withStreams),
      `  p95 ratio (streams / none): ${(withStreams.p95 / without.p95).toFixed(2)}`,
      `  streams opened in ${openSeconds.toFixed(1)} s; changes delivered ${changesSeen} of ${expected}`,
      '',
    ].join('\n'),
  );
  if (changesSeen < expected) process.exitCode = 1;
} finally {
  for (const holder of holders) holder.kill();
  agent.destroy();
  await stopServer(server);
  await rm(folder, { recursive: true, force: true });
}
