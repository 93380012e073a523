// What a hostile body costs the server: one owner uploads restore files (or imports) that are
// only nested brackets, while another owner records payments one after another. A real server
// process on a fresh database (SQLite, or PostgreSQL with --postgres and TEST_DATABASE_URL set).
// Prints each upload's answer, the payments' latency idle and during the uploads, the server's
// resident memory before and its peak (VmHWM) after, and whether the process is still running.
//
//   node scripts/measure-hostile-bodies.ts [--postgres] [--uploads N] [--import] [--megabytes N] [--wide]
import { fork } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { createTestDatabase } from '../tests/db.ts';
import { joinOver } from '../tests/faults/http.ts';
import { startNode } from './bench/processes.ts';
import { serverNodeFlags } from './server-flags.ts';

const { values: flags } = parseArgs({
  options: {
    postgres: { type: 'boolean', default: false },
    import: { type: 'boolean', default: false },
    uploads: { type: 'string', default: '1' },
    megabytes: { type: 'string', default: '60' },
    wide: { type: 'boolean', default: false },
    // Internal: run as the uploading process (so its work never delays the payments' timing).
    sender: { type: 'string' },
    cookie: { type: 'string' },
  },
});
const uploads = Number(flags.uploads);
const megabytes = Number(flags.megabytes);

/**
 * A body of `megabytes` MB that is all nesting (or with --wide, empty arrays side by side) inside
 * an otherwise plausible head.
 */
function nestedBody(): string {
  const depth = Math.floor((megabytes * 1e6) / 2) - 50;
  const head = flags.import
    ? '{"dryRun":true,"skipDuplicates":false,"rows":'
    : '{"format":"balance-export","version":2,"x":';
  if (flags.wide) return `${head}[${'[],'.repeat(Math.floor(depth / 1.5))}[]]}`;
  return `${head}${'['.repeat(depth)}${']'.repeat(depth)}}`;
}

function memoryKb(pid: number, field: 'VmRSS' | 'VmHWM'): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? NaN);
}

function percentile(sorted: number[], q: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? NaN;
}

if (flags.sender !== undefined) {
  const body = new TextEncoder().encode(nestedBody());
  const path = flags.import ? '/api/clients/import' : '/api/restore?dryRun=true';
  for (;;) {
    let answer: string;
    try {
      const response = await fetch(flags.sender + path, {
        method: 'POST',
        headers: { cookie: flags.cookie ?? '', 'content-type': 'application/json' },
        body,
      });
      answer = `${response.status} ${(await response.text()).slice(0, 160)}`;
    } catch (error) {
      // A body refused part-way is answered, and its connection closed, before it is all sent.
      answer = `no answer read: ${String(error)}`;
    }
    process.send?.(answer);
  }
}

const database = await createTestDatabase(flags.postgres ? 'postgres' : 'sqlite');
const server = await startNode(
  'server',
  'src/server/main.ts',
  { DATABASE_URL: database.url, LOG_LEVEL: 'warn' },
  '/api/health',
  serverNodeFlags,
);
try {
  const uploader = await joinOver(server.url);
  const payer = await joinOver(server.url);
  const json = (cookie: string) => ({ cookie, 'content-type': 'application/json' });
  const created = await fetch(`${server.url}/api/clients`, {
    method: 'POST',
    headers: json(payer),
    body: JSON.stringify({
      firstName: 'Ada',
      lastName: 'Payer',
      email: 'ada@example.com',
      phone: '5551234567',
      currency: 'USD',
      balance: 0,
    }),
  });
  if (created.status !== 201) throw new Error(`adding a client answered ${created.status}`);
  const { id: clientId } = (await created.json()) as { id: string };
  /** Payments one after another until `enough()` says so, their latencies in order. */
  const payments = async (enough: (count: number) => boolean) => {
    const latencies: number[] = [];
    while (!enough(latencies.length)) {
      const started = performance.now();
      const answer = await fetch(`${server.url}/api/clients/${clientId}/entries`, {
        method: 'POST',
        headers: json(payer),
        body: JSON.stringify({ kind: 'payment', amount: 1, note: 'probe' }),
      });
      await answer.arrayBuffer();
      if (answer.status !== 201) throw new Error(`a payment answered ${answer.status}`);
      latencies.push(performance.now() - started);
    }
    return latencies.sort((a, b) => a - b);
  };
  const probes = 200;
  const idle = await payments((count) => count >= probes);
  const body = nestedBody();
  const rssBefore = memoryKb(server.pid, 'VmRSS');
  const hwmBefore = memoryKb(server.pid, 'VmHWM');
  const started = performance.now();
  // Each sender is a process of its own that uploads again and again until stopped, so that
  // writing 60 MB at a time never holds up the thread that times the payments.
  const senders = Array.from({ length: uploads }, () =>
    fork(
      import.meta.filename,
      [...process.argv.slice(2), '--sender', server.url, '--cookie', uploader],
      {
        stdio: ['ignore', 'pipe', 'inherit', 'ipc'],
      },
    ),
  );
  const answers = new Map<string, number>();
  let uploadsDone = 0;
  for (const sender of senders)
    sender.on('message', (answer: string) => {
      answers.set(answer, (answers.get(answer) ?? 0) + 1);
      uploadsDone += 1;
    });
  const during = await payments((count) => count >= probes && uploadsDone >= uploads);
  await Promise.all(
    senders.map((sender) => {
      const exited = new Promise((resolve) => sender.once('exit', resolve));
      sender.kill();
      return exited;
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  const alive = await fetch(`${server.url}/api/health`)
    .then((answer) => answer.status)
    .catch(() => 0);
  const mb = (kb: number) => (kb / 1024).toFixed(0);
  const ms = (value: number) => value.toFixed(1);
  const out = (line: string) => process.stdout.write(`${line}\n`);
  out(
    `${flags.postgres ? 'PostgreSQL' : 'SQLite'}: ${uploadsDone} uploads (${uploads} at a time) of a ${(body.length / 1e6).toFixed(1)} MB nested ${flags.import ? 'import' : 'restore'} body, ${seconds.toFixed(1)} s`,
  );
  for (const [answer, count] of answers) out(`  ${count} × ${answer}`);
  out(
    `  payments idle:   p50 ${ms(percentile(idle, 0.5))} ms, p99 ${ms(percentile(idle, 0.99))} ms`,
  );
  out(
    `  payments during: p50 ${ms(percentile(during, 0.5))} ms, p99 ${ms(percentile(during, 0.99))} ms, max ${ms(during.at(-1) ?? NaN)} ms (${during.length} payments)`,
  );
  out(
    `  memory: ${mb(rssBefore)} MB before (peak so far ${mb(hwmBefore)} MB), peak ${mb(memoryKb(server.pid, 'VmHWM'))} MB, now ${mb(memoryKb(server.pid, 'VmRSS'))} MB`,
  );
  out(`  health after: ${alive === 0 ? 'no answer (the process is gone)' : alive}`);
} catch (error) {
  process.stdout.write(`${String(error)}\n${server.output().slice(-2000)}\n`);
} finally {
  await server.stop().catch(() => {});
  await database.drop();
}
