// Does one owner's heavy request slow everyone else down? GET /api/health is asked one request
// after another (on one kept-alive connection) while a large import or export runs, and its
// latency is compared with the same probe on the idle server in the same run. The server's
// memory is sampled during the exports.
import { Agent, request } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import { rssMb } from './processes.ts';

export interface ProbeResult {
  samples: number;
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
}

export interface HeavyResult {
  name: string;
  /** How long the heavy requests took in all, and how many ran. */
  durationMs: number;
  runs: number;
  probe: ProbeResult;
  /** The server's resident memory before, and its highest sample during the heavy requests. */
  rssBeforeMb: number | null;
  rssPeakMb: number | null;
  /** Bytes received by the heavy requests, all runs together. */
  bytes: number;
}

const agent = new Agent({ keepAlive: true, maxSockets: 4 });

/** One HTTP request; resolves with its status and the number of body bytes, read and dropped. */
function fetchDropping(
  url: string,
  options: { method?: string; headers?: Record<string, string>; body?: string | Buffer } = {},
): Promise<{ status: number; bytes: number }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: options.method ?? 'GET', headers: options.headers, agent });
    req.on('response', (response) => {
      let bytes = 0;
      response.on('data', (chunk: Buffer) => (bytes += chunk.length));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, bytes }));
      response.on('error', reject);
    });
    req.on('error', reject);
    req.end(options.body);
  });
}

function summarize(latencies: number[]): ProbeResult {
  const sorted = [...latencies].sort((a, b) => a - b);
  const at = (q: number) =>
    sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? NaN;
  return { samples: sorted.length, p50Ms: at(0.5), p99Ms: at(0.99), maxMs: at(1) };
}

/** Asks for /api/health one request after another until `until` settles. */
async function probe(baseUrl: string, until: Promise<unknown>): Promise<ProbeResult> {
  let done = false;
  void until.finally(() => (done = true));
  const latencies: number[] = [];
  while (!done) {
    const started = performance.now();
    const { status } = await fetchDropping(`${baseUrl}/api/health`);
    if (status !== 200) throw new Error(`GET /api/health answered ${status} during the probe`);
    latencies.push(performance.now() - started);
    // A small pause, as a monitor would leave, so the probe itself is not a load.
    await sleep(2);
  }
  return summarize(latencies);
}

/** The probe on the idle server, for `ms` milliseconds. */
export function probeIdle(baseUrl: string, ms: number): Promise<ProbeResult> {
  return probe(baseUrl, sleep(ms));
}

/** Runs `heavy` `runs` times in a row while probing health and sampling the server's memory. */
export async function duringHeavy(
  name: string,
  baseUrl: string,
  serverPid: number,
  runs: number,
  heavy: () => Promise<{ status: number; bytes: number }>,
): Promise<HeavyResult> {
  const rssBeforeMb = rssMb(serverPid);
  let rssPeakMb = rssBeforeMb;
  const sampler = setInterval(() => {
    const now = rssMb(serverPid);
    if (now !== null && (rssPeakMb === null || now > rssPeakMb)) rssPeakMb = now;
  }, 50);
  const started = performance.now();
  let bytes = 0;
  const work = (async () => {
    for (let run = 0; run < runs; run++) {
      const answer = await heavy();
      if (answer.status !== 200) throw new Error(`${name} answered ${answer.status}`);
      bytes += answer.bytes;
    }
  })();
  try {
    const [probeResult] = await Promise.all([probe(baseUrl, work), work]);
    return {
      name,
      durationMs: performance.now() - started,
      runs,
      probe: probeResult,
      rssBeforeMb,
      rssPeakMb,
      bytes,
    };
  } finally {
    clearInterval(sampler);
  }
}

/** A 20,000-row import body of new clients for `importer`, the `round`-th of the run. */
/** The rows of the bench's imports: each round's e-mails its own. */
export function importRows(rows: number, round: number) {
  return Array.from({ length: rows }, (_, i) => ({
    firstName: 'Imported',
    lastName: `Client${round}x${i}`,
    email: `imported.${round}.${i}@example.com`,
    phone: '+1 555 0100100',
    balance: (i % 5000) - 1000,
    currency: (['KRW', 'USD', 'CAD', 'MYR'] as const)[i % 4],
  }));
}

export function importBody(rows: number, round: number): string {
  return JSON.stringify({ dryRun: false, skipDuplicates: true, rows: importRows(rows, round) });
}

export { fetchDropping };
