// Crash safety: the real server under concurrent writes is killed with SIGKILL at random
// moments and restarted, again and again; then every acknowledged write must be in the
// database, the database must pass its integrity check, and every client's balance must equal
// the last balance in its history.
//
//   node scripts/crash-test.ts [--kills N]     (npm run test:crash; CI runs --kills 10)
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { setTimeout as sleep } from 'node:timers/promises';
import { parseArgs } from 'node:util';

const projectRoot = path.resolve(import.meta.dirname, '..');

const { values: options } = parseArgs({
  options: { kills: { type: 'string', default: '100' } },
});
const kills = Number(options.kills);
if (!Number.isInteger(kills) || kills < 1) {
  process.stderr.write('crash-test: --kills must be a whole number above 0\n');
  process.exit(2);
}

/** Writers at once: enough that a kill nearly always lands on some write in flight. */
const writers = 6;
/** How long a server lives before its kill, at most; the moment is random within it. */
const maxLifeMs = 900;

interface Server {
  child: ChildProcess;
  url: string;
  exited: Promise<void>;
}

const errorLines: string[] = [];

/** Starts `node src/server/main.ts`; resolves once it listens, or null if it died first. */
function spawnServer(databaseFile: string): { child: ChildProcess; ready: Promise<Server | null> } {
  const child = spawn(process.execPath, ['src/server/main.ts'], {
    cwd: projectRoot,
    env: {
      ...process.env,
      PORT: '0',
      HOST: '127.0.0.1',
      DATABASE_URL: databaseFile,
      LOG_LEVEL: 'info',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const ready = new Promise<Server | null>((resolve) => {
    let pending = '';
    const onData = (chunk: Buffer) => {
      pending += chunk.toString();
      const lines = pending.split('\n');
      pending = lines.pop() ?? '';
      for (const line of lines) {
        const match = /^Balance is running at (http:\/\/127\.0\.0\.1:\d+)$/.exec(line);
        if (match?.[1]) resolve({ child, url: match[1], exited });
        // Pino levels: 50 is error, 60 fatal. A restart after a crash must log neither, and say
        // nothing but JSON log lines and its start line.
        else if (/"level":(50|60)/.test(line) || (!line.startsWith('{') && line.trim() !== '')) {
          errorLines.push(line.slice(0, 500));
        }
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    void exited.then(() => resolve(null));
  });
  return { child, ready };
}

// --- The writers ---------------------------------------------------------------------------

interface Known {
  version: number;
}
interface AckedChange {
  id: string;
  version: number;
  balance: number;
  action: 'balance_changed' | 'edited';
}

const known = new Map<string, Known>();
const ackedAdds = new Set<string>();
/** Ledger entries whose payment was answered 201. */
const ackedEntries = new Set<number>();
const ackedChanges: AckedChange[] = [];
let conflicts = 0;
let unknownOutcomes = 0;
let inFlight = 0;
let inFlightAtKills = 0;
const unexpected: string[] = [];

let current: Server | null = null;
let serverUp: Promise<void> = Promise.resolve();
let markUp: () => void = () => {};
let stopping = false;
let cookie = '';
let counter = 0;

function serverDown(): void {
  current = null;
  serverUp = new Promise((resolve) => (markUp = resolve));
}

const randomInt = (below: number) => Math.floor(Math.random() * below);

function newClient() {
  counter += 1;
  return {
    firstName: 'Crash',
    lastName: `Test${counter}`,
    email: `crash.${counter}@example.com`,
    phone: '+1 555 010 2030',
    balance: randomInt(1_000_000),
    currency: 'USD',
  };
}

async function call(
  method: string,
  route: string,
  body?: unknown,
): Promise<{ status: number; json: unknown } | null> {
  const server = current;
  if (!server) return null;
  inFlight += 1;
  try {
    const response = await fetch(server.url + route, {
      method,
      headers: { cookie, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      signal: AbortSignal.timeout(10_000),
    });
    // An answer only counts once it has been read in full.
    const text = await response.text();
    return { status: response.status, json: text ? (JSON.parse(text) as unknown) : null };
  } catch {
    return null;
  } finally {
    inFlight -= 1;
  }
}

async function writer(): Promise<void> {
  while (!stopping) {
    await serverUp;
    if (stopping) break;
    const ids = [...known.keys()];
    const roll = Math.random();
    if (ids.length < 5 || roll < 0.35) {
      const answer = await call('POST', '/api/clients', newClient());
      if (!answer) {
        unknownOutcomes += 1;
      } else if (answer.status === 201) {
        const { id, version } = answer.json as { id: string; version: number };
        known.set(id, { version });
        ackedAdds.add(id);
      } else {
        unexpected.push(`POST /api/clients answered ${answer.status}`);
      }
      continue;
    }
    const id = ids[randomInt(ids.length)] ?? '';
    const seen = known.get(id)?.version ?? 1;
    const balance = randomInt(2_000_000) - 500_000;
    if (roll < 0.5) {
      // A payment: an append that never conflicts; its entry must survive once answered 201.
      const paid = await call('POST', `/api/clients/${id}/entries`, {
        kind: 'payment',
        amount: 1 + randomInt(10_000),
      });
      if (!paid) unknownOutcomes += 1;
      else if (paid.status === 201)
        ackedEntries.add((paid.json as { entry: { entryId: number } }).entry.entryId);
      else unexpected.push(`payment answered ${paid.status}`);
      continue;
    }
    const action = roll < 0.8 ? 'balance_changed' : 'edited';
    const answer =
      action === 'balance_changed'
        ? await call('PATCH', `/api/clients/${id}/balance`, { balance, version: seen })
        : await call('PUT', `/api/clients/${id}`, {
            ...newClient(),
            balance,
            version: seen,
          });
    if (!answer) {
      unknownOutcomes += 1;
    } else if (answer.status === 200) {
      const { version } = answer.json as { version: number };
      ackedChanges.push({ id, version, balance, action });
      const entry = known.get(id);
      if (entry && entry.version < version) entry.version = version;
    } else if (answer.status === 409) {
      // Another writer, or a write whose answer a kill swallowed, got there first.
      conflicts += 1;
      const fresh = await call('GET', `/api/clients/${id}`);
      if (fresh?.status === 200) {
        const { version } = fresh.json as { version: number };
        const entry = known.get(id);
        if (entry && entry.version < version) entry.version = version;
      }
    } else {
      unexpected.push(`${action} answered ${answer.status}`);
    }
  }
}

// --- The run -------------------------------------------------------------------------------

async function join(): Promise<void> {
  const server = current;
  if (!server) throw new Error('no server to join');
  const response = await fetch(`${server.url}/api/auth/join`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: 'crash@example.com', password: 'correct horse battery staple' }),
  });
  if (response.status !== 201) throw new Error(`join answered ${response.status}`);
  cookie = (response.headers.getSetCookie()[0] ?? '').split(';')[0] ?? '';
}

async function start(databaseFile: string): Promise<Server> {
  const { ready } = spawnServer(databaseFile);
  const server = await ready;
  if (!server) throw new Error('the server died before it listened');
  return server;
}

interface Row {
  [column: string]: unknown;
}

/** The balance a history entry's `after` snapshot holds, or null when it holds none. */
function balanceAfter(event: Row | undefined): number | null {
  if (typeof event?.after !== 'string') return null;
  return (JSON.parse(event.after) as { balance: number }).balance;
}

/** Reads the database file directly and lists everything that is wrong with it. */
function checkDatabase(databaseFile: string): { problems: string[]; clients: number } {
  const problems: string[] = [];
  const db = new DatabaseSync(databaseFile);
  try {
    const integrity = db.prepare('PRAGMA integrity_check').all() as Row[];
    const verdict = integrity.map((row) => String(row.integrity_check)).join('; ');
    if (verdict !== 'ok') problems.push(`integrity_check: ${verdict}`);
    const foreign = db.prepare('PRAGMA foreign_key_check').all();
    if (foreign.length > 0) problems.push(`foreign_key_check: ${foreign.length} rows`);

    const clientVersion = db.prepare('SELECT version FROM clients WHERE id = ?');
    for (const id of ackedAdds) {
      if (!clientVersion.get(id)) problems.push(`acknowledged add of ${id} is missing`);
    }
    const eventAt = db.prepare(
      'SELECT action, after FROM events WHERE client_id = ? AND version = ?',
    );
    for (const change of ackedChanges) {
      const row = clientVersion.get(change.id) as Row | undefined;
      if (!row || Number(row.version) < change.version) {
        problems.push(`client ${change.id} is older than acknowledged version ${change.version}`);
      }
      const event = eventAt.get(change.id, change.version) as Row | undefined;
      if (!event || event.action !== change.action || balanceAfter(event) !== change.balance) {
        problems.push(
          `acknowledged ${change.action} of ${change.id} to ${change.balance} at version ${change.version} is not in the history`,
        );
      }
    }

    const entry = db.prepare('SELECT id FROM entries WHERE id = ?');
    for (const id of ackedEntries) {
      if (!entry.get(id)) problems.push(`acknowledged payment entry ${id} is missing`);
    }
    // The ledger's invariant: each balance is the sum of the client's entries in its currency.
    const unbalanced = db
      .prepare(
        `SELECT c.id, c.balance, (SELECT coalesce(sum(e.amount), 0) FROM entries e
           WHERE e.client_id = c.id AND e.currency = c.currency) AS total
         FROM clients c WHERE c.balance <> (SELECT coalesce(sum(e.amount), 0) FROM entries e
           WHERE e.client_id = c.id AND e.currency = c.currency)`,
      )
      .all() as Row[];
    for (const row of unbalanced) {
      problems.push(
        `client ${String(row.id)} has balance ${String(row.balance)} but its entries add up to ${String(row.total)}`,
      );
    }

    const clients = db.prepare('SELECT id, balance, version FROM clients').all() as Row[];
    const history = db.prepare('SELECT version, after FROM events WHERE client_id = ? ORDER BY id');
    for (const client of clients) {
      const events = history.all(String(client.id)) as Row[];
      const newest = events.at(-1);
      const newestBalance = balanceAfter(newest);
      if (newestBalance !== Number(client.balance)) {
        problems.push(
          `client ${String(client.id)} has balance ${String(client.balance)}, its newest event says ${String(newestBalance)}`,
        );
      }
      if (Number(newest?.version) !== Number(client.version)) {
        problems.push(
          `client ${String(client.id)} is at version ${String(client.version)}, its newest event at ${String(newest?.version)}`,
        );
      }
      const versions = events.map((event) => Number(event.version));
      if (versions.some((version, index) => version !== index + 1)) {
        problems.push(`client ${String(client.id)} has history versions ${versions.join(',')}`);
      }
    }
    return { problems, clients: clients.length };
  } finally {
    db.close();
  }
}

async function main(): Promise<number> {
  const began = performance.now();
  const dir = await mkdtemp(path.join(os.tmpdir(), 'balance-crash-'));
  const databaseFile = path.join(dir, 'crash.sqlite');
  let child: ChildProcess | null = null;
  process.once('exit', () => child?.kill('SIGKILL'));

  serverDown();
  current = await start(databaseFile);
  child = current.child;
  await join();
  markUp();
  const running = Array.from({ length: writers }, () => writer());

  let killed = 0;
  let killedBeforeListening = 0;
  while (killed < kills) {
    if (!current) {
      // Now and then the kill comes while the server is still starting up.
      if (Math.random() < 0.1) {
        const early = spawnServer(databaseFile);
        child = early.child;
        const exited = new Promise<void>((resolve) => early.child.once('exit', () => resolve()));
        await sleep(randomInt(400));
        early.child.kill('SIGKILL');
        await exited;
        if (!(await early.ready)) killedBeforeListening += 1;
        killed += 1;
        continue;
      }
      current = await start(databaseFile);
      child = current.child;
      markUp();
    }
    await sleep(randomInt(maxLifeMs));
    const server = current;
    inFlightAtKills += inFlight;
    serverDown();
    server.child.kill('SIGKILL');
    await server.exited;
    killed += 1;
  }

  // One last life: the server must come up on what the kills left, and answer.
  current = await start(databaseFile);
  child = current.child;
  markUp();
  await sleep(300);
  const health = await call('GET', '/api/health');
  stopping = true;
  await Promise.all(running);
  const last = current;
  last.child.kill('SIGTERM');
  await last.exited;

  const { problems, clients } = checkDatabase(databaseFile);
  if (health?.status !== 200)
    problems.push(`the restarted server answered health ${health?.status}`);
  if (errorLines.length > 0)
    problems.push(`the server logged errors:\n  ${errorLines.slice(0, 5).join('\n  ')}`);
  if (unexpected.length > 0)
    problems.push(`unexpected answers: ${[...new Set(unexpected)].join(', ')}`);
  const acknowledged = ackedAdds.size + ackedChanges.length + ackedEntries.size;
  if (acknowledged < kills)
    problems.push(`only ${acknowledged} writes were acknowledged: too few to tell`);
  if (kills >= 5 && inFlightAtKills === 0) problems.push('no kill landed on a write in flight');

  const seconds = ((performance.now() - began) / 1000).toFixed(1);
  const verdict = problems.length === 0 ? 'PASS' : 'FAIL';
  process.stdout.write(
    `crash-test ${verdict}: ${killed} kills (${killedBeforeListening} during start-up), ` +
      `${acknowledged} acknowledged writes (${ackedAdds.size} adds, ${ackedChanges.length} changes, ${ackedEntries.size} payments), ` +
      `${inFlightAtKills} in flight at a kill, ${unknownOutcomes} without an answer, ${conflicts} conflicts, ` +
      `${clients} clients checked against their history, integrity ${problems.some((p) => p.startsWith('integrity')) ? 'FAILED' : 'ok'}, ${seconds} s\n`,
  );
  if (problems.length > 0) {
    process.stdout.write(`${problems.slice(0, 20).join('\n')}\n(database kept in ${dir})\n`);
    return 1;
  }
  await rm(dir, { recursive: true, force: true });
  return 0;
}

process.exitCode = await main();
