// Live fan-out: how much thousands of open live streams of one owner slow that owner's writes.
// Starts the real server (SQLite in a temporary folder, or PostgreSQL with --database URL),
// measures rounds of concurrent writes with no stream open, then opens the streams and measures
// the same rounds again, for long enough that every stream's heartbeat falls inside. Prints both
// p95s and their ratio (one run, one machine), and checks that every stream reached the last
// change and that every change reached each of the streams that count them (one in ten).
//
// The streams are opened as the web app opens them, asking for several changes to come as one
// message (`summarize=true`); with --every-change, as an API client that wants each change.
//
//   node scripts/live-fanout.ts [--streams N] [--writes N] [--seconds S] [--heartbeat S]
//                               [--database URL] [--every-change]      (npm run measure:live-fanout)
import { fork, type ChildProcess } from 'node:child_process';
import http from 'node:http';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { parseArgs } from 'node:util';
import { startServerProcess, stopServer } from '../tests/server-process.ts';

if (process.argv[2] === '--hold')
  await holdStreams(...(process.argv.slice(3) as [string, string, string, string]));

/**
 * The child process: opens the streams, says how long that took, and answers each 'count' with
 * what they have received so far. On one machine its reading competes with the server for the
 * CPU, so it reads cheaply: every stream keeps only the id of the last change it got (searched
 * for from the end of each chunk), and one stream in ten also counts every change it gets: one
 * per `change` message, and the count a `changes` message gives.
 */
async function holdStreams(
  baseUrl: string,
  cookie: string,
  count: string,
  query: string,
): Promise<never> {
  const readyFrame = Buffer.from('event: ready');
  const idLine = Buffer.from('\nid: ');
  /** The id of the last whole `id:` line in these bytes, or null. */
  const readLastId = (bytes: Buffer): number | null => {
    for (
      let at = bytes.lastIndexOf(idLine);
      at >= 0;
      at = at > 0 ? bytes.lastIndexOf(idLine, at - 1) : -1
    ) {
      const end = bytes.indexOf(0x0a, at + idLine.length);
      if (end >= 0) return Number(bytes.toString('latin1', at + idLine.length, end));
    }
    return null;
  };
  const lastIds: number[] = [];
  let counted = 0;
  let countingStreams = 0;
  const open = (index: number) =>
    new Promise<void>((resolve, reject) => {
      const url = new URL(`/api/events${query}`, baseUrl);
      const counting = index % 10 === 0;
      if (counting) countingStreams += 1;
      lastIds[index] = -1;
      const request = http.get(
        {
          hostname: url.hostname,
          port: url.port,
          path: url.pathname + url.search,
          headers: { cookie },
          agent: false,
        },
        (response) => {
          if (response.statusCode !== 200) {
            reject(new Error(`GET /api/events answered ${response.statusCode}`));
            return;
          }
          let ready = false;
          // The end of the bytes before this chunk: an id line split between two chunks is
          // read whole across their seam.
          let tail = Buffer.alloc(0);
          // A counting stream's last message, until the blank line that ends it arrives.
          let unfinished = '';
          const countChanges = (text: string) => {
            const messages = (unfinished + text).split('\n\n');
            unfinished = messages.pop() ?? '';
            for (const message of messages) {
              if (message.includes('event: change\n')) counted += 1;
              else if (message.includes('event: changes\n'))
                counted += Number(/"count":(\d+)/.exec(message)?.[1] ?? NaN);
            }
          };
          response.on('data', (chunk: Buffer) => {
            if (!ready && chunk.includes(readyFrame)) {
              ready = true;
              resolve();
            }
            if (counting) countChanges(chunk.toString('latin1'));
            const lastId = readLastId(chunk) ?? readLastId(Buffer.concat([tail, chunk]));
            if (lastId !== null) lastIds[index] = Math.max(lastIds[index] ?? -1, lastId);
            tail = Buffer.from(chunk.subarray(-64));
          });
          response.on('error', () => {});
        },
      );
      request.on('error', reject);
    });
  const started = performance.now();
  try {
    for (let start = 0; start < Number(count); start += 100)
      await Promise.all(
        Array.from({ length: Math.min(100, Number(count) - start) }, (_, at) => open(start + at)),
      );
    process.send?.({ opened: performance.now() - started, countingStreams });
  } catch (error) {
    process.send?.({ error: String(error) });
  }
  process.on('message', () =>
    process.send?.({
      counted,
      countingStreams,
      lowestLastId: Math.min(...lastIds),
      highestLastId: Math.max(...lastIds),
    }),
  );
  return new Promise<never>(() => {});
}

interface HolderMessage {
  opened?: number;
  countingStreams?: number;
  counted?: number;
  lowestLastId?: number;
  highestLastId?: number;
  error?: string;
}

const { values: args } = parseArgs({
  options: {
    streams: { type: 'string', default: '5000' },
    writes: { type: 'string', default: '40' },
    seconds: { type: 'string', default: '20' },
    heartbeat: { type: 'string', default: '15' },
    database: { type: 'string' },
    'every-change': { type: 'boolean', default: false },
  },
});
const streamQuery = args['every-change'] ? '' : '?summarize=true';
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
  const holder = fork(
    import.meta.filename,
    ['--hold', server.url, cookie, String(streamCount), streamQuery],
    {
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    },
  );
  holders.push(holder);
  // The readers of a real server's streams are browsers on other machines. Here they share the
  // server's CPU, so they get only what the server and the writers leave: otherwise this machine
  // would measure how fast it reads 5,000 streams, not how much they slow the server's writes.
  if (holder.pid !== undefined) os.setPriority(holder.pid, 19);
  const messages: HolderMessage[] = [];
  let notify = () => {};
  holder.on('message', (message: HolderMessage) => {
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
  // Give the last fan-out time to arrive: every stream must reach the same last change, and the
  // streams that count must each have got every change.
  const expected = (counter - before) * (opened.countingStreams ?? 0);
  let received: HolderMessage = {};
  const delivered = () =>
    received.counted === expected && received.lowestLastId === received.highestLastId;
  for (let waited = 0; !delivered() && waited < 30_000; waited += 200) {
    holder.send('count');
    received = await nextMessage();
    if (!delivered()) await sleep(200);
  }
  const line = (name: string, result: Awaited<ReturnType<typeof measure>>) =>
    `${name}: ${result.writes} writes in ${result.rounds} rounds, p50 ${result.p50.toFixed(0)} ms, p95 ${result.p95.toFixed(0)} ms`;
  process.stdout.write(
    [
      `live fan-out: ${concurrentWrites} concurrent adds for ${seconds} s each, heartbeat ${args.heartbeat} s, ${args.database ? 'PostgreSQL' : 'SQLite'}`,
      line('  no stream open', without),
      line(`  ${streamCount} streams open`, withStreams),
      `  p95 ratio (streams / none): ${(withStreams.p95 / without.p95).toFixed(2)}`,
      `  streams opened in ${openSeconds.toFixed(1)} s ${args['every-change'] ? 'for every change' : 'as the web app does (summarize=true)'}, read by a process at the lowest CPU priority`,
      `  every stream at the same last change: ${received.lowestLastId === received.highestLastId ? 'yes' : `no (ids ${received.lowestLastId} to ${received.highestLastId})`}`,
      `  changes delivered to the ${opened.countingStreams} streams that count them: ${received.counted} of ${expected}`,
      '',
    ].join('\n'),
  );
  if (!delivered()) process.exitCode = 1;
} finally {
  for (const holder of holders) holder.kill();
  agent.destroy();
  await stopServer(server);
  await rm(folder, { recursive: true, force: true });
}
