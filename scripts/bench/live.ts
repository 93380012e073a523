import http from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import { rssMb } from './processes.ts';

/** A client the bench changes, with the version it last saw (a stale one answers 409). */
export interface TrackedClient {
  id: string;
  version: number;
}

interface Subscriber {
  close(): void;
}

type OnChange = (clientId: string, action: string, at: number) => void;

/**
 * One live stream over a raw socket of its own (no pooling agent), as a browser tab would hold.
 * Resolves once the stream's `ready` event has arrived, so it is subscribed before any write.
 * Opened without `summarize=true`, as an API client would: each change's own `change` message
 * is what is timed (the changes are made one after another, so the web app's streams would get
 * the same messages).
 */
function openSubscriber(baseUrl: string, cookie: string, onChange: OnChange): Promise<Subscriber> {
  return new Promise((resolve, reject) => {
    const url = new URL('/api/events', baseUrl);
    let ready = false;
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
          response.resume();
          reject(new Error(`GET /api/events answered ${response.statusCode}`));
          return;
        }
        response.setEncoding('utf8');
        let buffer = '';
        response.on('data', (chunk: string) => {
          const at = performance.now();
          buffer += chunk;
          let end: number;
          while ((end = buffer.indexOf('\n\n')) >= 0) {
            const block = buffer.slice(0, end);
            buffer = buffer.slice(end + 2);
            let event = 'message';
            let data = '';
            for (const line of block.split('\n')) {
              if (line.startsWith('event: ')) event = line.slice(7);
              else if (line.startsWith('data: ')) data = line.slice(6);
            }
            if (event === 'ready' && !ready) {
              ready = true;
              resolve({ close: () => request.destroy() });
            } else if (event === 'change') {
              const change = JSON.parse(data) as { action: string; clientId: string | null };
              if (change.clientId) onChange(change.clientId, change.action, at);
            }
          }
        });
        response.on('error', () => {});
      },
    );
    request.on('error', (error) => {
      if (!ready) reject(error);
    });
    request.setTimeout(30_000, () => {
      if (!ready) request.destroy(new Error('no ready event within 30 s'));
    });
  });
}

export interface LiveResult {
  subscribers: number;
  opened: number;
  changes: number;
  /** (subscriber, change) pairs that arrived. */
  samples: number;
  /** Pairs that had not arrived 5 s after their write. */
  missing: number;
  p50Ms: number;
  p95Ms: number;
  maxMs: number;
  /** Server memory with all subscribers open. */
  serverRssMb: number | null;
  openMs: number;
  error: string | null;
}

export interface LiveOptions {
  /** Instance the subscribers hold their streams on. */
  subscribeUrl: string;
  /** Instance the writes go to (another one, to measure across instances). */
  writeUrl: string;
  cookie: string;
  subscribers: number;
  changes: number;
  clients: TrackedClient[];
  /** Process to read memory from while the subscribers are open. */
  serverPid: number | null;
}

/**
 * The balance each change sets: never one set before in this process. A balance set to the value
 * it already has is answered 200 but changes nothing and records no event, so no stream would
 * hear of it; each live run changes the same clients, so a value derived from the change's index
 * alone would repeat the previous run's and every event of the later runs would be missing. Above
 * every seeded balance, so the first change of a seeded client changes it too.
 */
let nextBalance = 10_000_001;

export function percentile(sorted: number[], fraction: number): number {
  if (sorted.length === 0) return NaN;
  const index = Math.min(sorted.length - 1, Math.max(0, Math.ceil(fraction * sorted.length) - 1));
  return sorted[index] as number;
}

/** Times in milliseconds, as the bench reports a request's: how many, and p50, p95 and p99. */
export interface Percentiles {
  samples: number;
  p50Ms: number;
  p95Ms: number;
  p99Ms: number;
}

export function percentiles(times: number[]): Percentiles {
  const sorted = [...times].sort((a, b) => a - b);
  return {
    samples: sorted.length,
    p50Ms: percentile(sorted, 0.5),
    p95Ms: percentile(sorted, 0.95),
    p99Ms: percentile(sorted, 0.99),
  };
}

/**
 * Opens the subscribers, then makes the changes one after another: each is a balance change whose
 * latency, per subscriber, runs from the write's HTTP response (it has committed) to that
 * subscriber's `change` event. The next change waits until every subscriber has this one.
 */
export async function measureLive(options: LiveOptions): Promise<LiveResult> {
  const { subscribers: wanted, changes, clients, cookie } = options;
  // Events of the change in flight, by subscriber arrival; keyed by client id.
  let expected: { clientId: string; arrivals: number[]; done: () => void; want: number } | null =
    null;
  const onChange: OnChange = (clientId, action, at) => {
    if (action !== 'balance_changed' || !expected || expected.clientId !== clientId) return;
    expected.arrivals.push(at);
    if (expected.arrivals.length >= expected.want) expected.done();
  };

  const open: Subscriber[] = [];
  let error: string | null = null;
  const openStarted = performance.now();
  try {
    // A few dozen at a time: a thousand at once would mostly measure the listen backlog.
    for (let start = 0; start < wanted && !error; start += 50) {
      const batch = Array.from({ length: Math.min(50, wanted - start) }, () =>
        openSubscriber(options.subscribeUrl, cookie, onChange),
      );
      const settled = await Promise.allSettled(batch);
      for (const result of settled) {
        if (result.status === 'fulfilled') open.push(result.value);
        else {
          const reason = result.reason as NodeJS.ErrnoException;
          error =
            reason.code === 'EMFILE'
              ? `EMFILE after ${open.length} streams: raise the open-file limit (ulimit -n)`
              : `opening streams: ${reason.message}`;
        }
      }
    }
    const openMs = performance.now() - openStarted;
    const serverRssMb = options.serverPid === null ? null : rssMb(options.serverPid);

    const latencies: number[] = [];
    let missing = 0;
    if (open.length > 0) {
      for (let i = 0; i < changes; i++) {
        const client = clients[i % clients.length];
        if (!client) throw new Error('no clients to change');
        const arrivals: number[] = [];
        let done = () => {};
        const allArrived = new Promise<void>((resolve) => (done = resolve));
        expected = { clientId: client.id, arrivals, done, want: open.length };
        const response = await fetch(`${options.writeUrl}/api/clients/${client.id}/balance`, {
          method: 'PATCH',
          headers: { cookie, 'content-type': 'application/json' },
          body: JSON.stringify({ balance: nextBalance++, version: client.version }),
        });
        const committedAt = performance.now();
        if (response.status !== 200) {
          throw new Error(`balance change answered ${response.status}: ${await response.text()}`);
        }
        const { version } = (await response.json()) as { version: number };
        // The same version back means nothing was recorded: there is no event to wait for.
        if (version === client.version) {
          throw new Error(`balance change of ${client.id} recorded nothing (version ${version})`);
        }
        client.version = version;
        await Promise.race([allArrived, sleep(5000)]);
        expected = null;
        // A stream can read its event before this process reads the HTTP answer: that is 0 ms.
        for (const at of arrivals) latencies.push(Math.max(0, at - committedAt));
        missing += open.length - arrivals.length;
      }
    }
    latencies.sort((a, b) => a - b);
    return {
      subscribers: wanted,
      opened: open.length,
      changes: open.length > 0 ? changes : 0,
      samples: latencies.length,
      missing,
      p50Ms: percentile(latencies, 0.5),
      p95Ms: percentile(latencies, 0.95),
      maxMs: latencies.length > 0 ? (latencies[latencies.length - 1] as number) : NaN,
      serverRssMb,
      openMs,
      error,
    };
  } finally {
    for (const subscriber of open) subscriber.close();
    // Let the server see the closes before the next phase opens its own streams.
    await sleep(200);
  }
}
