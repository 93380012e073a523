import { createRequire } from 'node:module';

// autocannon ships no types; this is the part of its programmatic API the bench uses.
interface RequestData {
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: string | Buffer;
}

export interface LoadRequest {
  method?: string;
  path?: string;
  headers?: Record<string, string>;
  body?: string;
  /** Called before each request; returning null makes autocannon restart its request list. */
  setupRequest?: (request: RequestData, context: Record<string, unknown>) => RequestData | null;
  onResponse?: (status: number, body: string, context: Record<string, unknown>) => void;
}

interface Histogram {
  average: number;
  min: number;
  max: number;
  p50: number;
  p90: number;
  p97_5: number;
  p99: number;
}

interface AutocannonResult {
  duration: number;
  latency: Histogram;
  requests: Histogram & { total: number; sent: number };
  errors: number;
  timeouts: number;
  non2xx: number;
  '2xx': number;
  statusCodeStats: Record<string, { count: number }>;
}

interface AutocannonOptions {
  url: string;
  connections: number;
  duration: number;
  timeout?: number;
  headers?: Record<string, string>;
  requests?: LoadRequest[];
  idReplacement?: boolean;
}

type Autocannon = (options: AutocannonOptions) => PromiseLike<AutocannonResult>;

const autocannon = createRequire(import.meta.url)('autocannon') as Autocannon;

/** What every browser sends: the list is measured as the web app loads it. */
export const browserHeaders = { 'accept-encoding': 'gzip, deflate, br, zstd' } as const;

export interface LoadSettings {
  connections: number;
  durationSeconds: number;
  warmupSeconds: number;
}

export interface LoadResult {
  /** 2xx answers per second: the figure every ratio uses. */
  okPerSecond: number;
  /** Every answer per second, whatever its status. */
  answersPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  ok: number;
  non2xx: number;
  errors: number;
  statusCodes: Record<string, number>;
}

export interface Scenario {
  /** Path on the base URL for a single fixed request; `requests` overrides it. */
  path?: string;
  headers?: Record<string, string>;
  requests?: LoadRequest[] | (() => LoadRequest[]);
  idReplacement?: boolean;
}

async function fire(
  baseUrl: string,
  scenario: Scenario,
  connections: number,
  durationSeconds: number,
): Promise<AutocannonResult> {
  const requests =
    typeof scenario.requests === 'function' ? scenario.requests() : scenario.requests;
  return autocannon({
    url: baseUrl + (scenario.path ?? '/'),
    connections,
    duration: durationSeconds,
    timeout: 10,
    ...(scenario.headers ? { headers: scenario.headers } : {}),
    ...(requests ? { requests } : {}),
    ...(scenario.idReplacement ? { idReplacement: true } : {}),
  });
}

/** A warm-up (not recorded), then the measured run, both with the same connections. */
export async function measure(
  baseUrl: string,
  scenario: Scenario,
  settings: LoadSettings,
): Promise<LoadResult> {
  if (settings.warmupSeconds > 0)
    await fire(baseUrl, scenario, settings.connections, settings.warmupSeconds);
  const result = await fire(baseUrl, scenario, settings.connections, settings.durationSeconds);
  const statusCodes = Object.fromEntries(
    Object.entries(result.statusCodeStats).map(([code, stats]) => [code, Number(stats.count)]),
  );
  const ok = result['2xx'];
  const answers = Object.values(statusCodes).reduce((sum, count) => sum + count, 0);
  return {
    okPerSecond: ok / result.duration,
    answersPerSecond: answers / result.duration,
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    ok,
    non2xx: result.non2xx,
    errors: result.errors,
    statusCodes,
  };
}
