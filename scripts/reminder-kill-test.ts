// Reminders exactly once across real processes (decision 029): two built servers on one
// PostgreSQL database, both running the sender, are killed with SIGKILL at random moments while
// they send and restarted, until every reminder is sent; then a real SMTP server started here
// must have received one message (one Message-ID) per client. A duplicate can only come from a
// kill between the mail server's acceptance and the `sent` commit, so there may be at most one
// per kill; a lost reminder is always a failure.
//
//   node scripts/reminder-kill-test.ts [--clients N] [--kills K] [--seed S] [--timeout-seconds T]
//   (npm run test:reminders-kill; by hand only: it needs PostgreSQL at TEST_DATABASE_URL)
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { EventEmitter, once } from 'node:events';
import { existsSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { parseArgs } from 'node:util';
import { simpleParser } from 'mailparser';
import pg from 'pg';
import { SMTPServer } from 'smtp-server';

const projectRoot = path.resolve(import.meta.dirname, '..');

const { values: options } = parseArgs({
  options: {
    clients: { type: 'string', default: '200' },
    kills: { type: 'string', default: '6' },
    seed: { type: 'string', default: String(Date.now() % 2 ** 31) },
    'timeout-seconds': { type: 'string', default: '600' },
  },
});
const wholeOption = (name: string, text: string, min: number) => {
  const value = Number(text);
  if (!Number.isInteger(value) || value < min) {
    process.stderr.write(`reminder-kill-test: --${name} must be a whole number from ${min}\n`);
    process.exit(2);
  }
  return value;
};
const clientCount = wholeOption('clients', options.clients, 1);
const killTarget = wholeOption('kills', options.kills, 1);
const seed = wholeOption('seed', options.seed, 0);
const timeoutMs = wholeOption('timeout-seconds', options['timeout-seconds'], 10) * 1000;
const adminUrl = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

/** Short enough that a killed instance's claims are taken again within the run. */
const leaseSeconds = 10;
const mailFrom = 'Balance <billing@example.com>';
const password = 'correct horse battery staple';

// A seeded generator: the same seed makes the same choices (the processes' timing still varies).
let state = seed >>> 0;
function random(): number {
  state = (state + 0x6d2b79f5) >>> 0;
  let t = state;
  t = Math.imul(t ^ (t >>> 15), t | 1);
  t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
}
const randomInt = (below: number) => Math.floor(random() * below);

// --- The mail server ---------------------------------------------------------------------

interface Received {
  messageId: string;
  to: string;
  slot: number;
}

/**
 * One SMTP server per server slot, sharing what they receive: the port a message came in on
 * tells which process sent it. A message counts once it is accepted (the reply to DATA); one
 * whose sender died before that is refused, as a mail server that cannot answer would.
 */
async function startMailServers(slots: number) {
  const received: Received[] = [];
  const inData = Array.from({ length: slots }, () => 0);
  const lastAcceptedAt = Array.from({ length: slots }, () => 0);
  const lastAcceptedId = Array.from({ length: slots }, () => '');
  const closed = new Set<string>();
  /** `data` (slot) when a message's DATA begins, `accepted` (slot) as its acceptance is sent. */
  const events = new EventEmitter();
  const servers = await Promise.all(
    Array.from({ length: slots }, async (_, slot) => {
      const server = new SMTPServer({
        authOptional: true,
        disabledCommands: ['STARTTLS', 'AUTH'],
        logger: false,
        disableReverseLookup: true,
        onClose(session) {
          closed.add(session.id);
        },
        onData(stream, session, callback) {
          inData[slot] = (inData[slot] ?? 0) + 1;
          events.emit('data', slot);
          simpleParser(stream)
            // A small delay per message, so that kills land between DATA and its reply too.
            .then(async (mail) => {
              await sleep(randomInt(31));
              if (closed.has(session.id)) throw new Error('the sender has gone');
              received.push({
                messageId: mail.messageId ?? '',
                to: (Array.isArray(mail.to) ? mail.to : mail.to ? [mail.to] : [])
                  .flatMap((address) => address.value.map((value) => value.address ?? ''))
                  .join(','),
                slot,
              });
              lastAcceptedAt[slot] = performance.now();
              lastAcceptedId[slot] = mail.messageId ?? '';
              callback();
              events.emit('accepted', slot);
            })
            .catch((error: unknown) => callback(error as Error))
            .finally(() => (inData[slot] = (inData[slot] ?? 1) - 1));
        },
      });
      server.listen(0, '127.0.0.1');
      await once(server.server, 'listening');
      return { server, port: (server.server.address() as AddressInfo).port };
    }),
  );
  return {
    received,
    inData,
    lastAcceptedAt,
    lastAcceptedId,
    events,
    urls: servers.map(({ port }) => `smtp://127.0.0.1:${port}`),
    close: () =>
      Promise.all(
        servers.map(({ server }) => new Promise<void>((resolve) => server.close(() => resolve()))),
      ),
  };
}

// --- The servers -------------------------------------------------------------------------

interface Server {
  child: ChildProcess;
  url: string;
  exited: Promise<void>;
}

const errorLines: string[] = [];

async function startServer(env: Record<string, string>): Promise<Server> {
  const child = spawn(process.execPath, ['--v8-pool-size=1', 'dist/server/main.js'], {
    cwd: projectRoot,
    env: { ...process.env, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const url = await new Promise<string | null>((resolve) => {
    let pending = '';
    const onData = (chunk: Buffer) => {
      pending += chunk.toString();
      const lines = pending.split('\n');
      pending = lines.pop() ?? '';
      for (const line of lines) {
        const match = /^Balance is running at (http:\/\/127\.0\.0\.1:\d+)$/.exec(line);
        if (match?.[1]) resolve(match[1]);
        else if (/"level":(50|60)/.test(line) || (!line.startsWith('{') && line.trim() !== ''))
          errorLines.push(line.slice(0, 400));
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    void exited.then(() => resolve(null));
  });
  if (!url) throw new Error(`the server died before it listened:\n${errorLines.join('\n')}`);
  return { child, url, exited };
}

async function kill(server: Server): Promise<void> {
  server.child.kill('SIGKILL');
  await server.exited;
}

async function api(
  server: Server,
  cookie: string,
  method: string,
  route: string,
  body?: unknown,
): Promise<unknown> {
  const response = await fetch(server.url + route, {
    method,
    headers: { cookie, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`${method} ${route} answered ${response.status}: ${text}`);
  return text ? (JSON.parse(text) as unknown) : null;
}

/** One owner with the plan on and `clientCount` clients, each with one charge due today. */
async function seedOwner(
  server: Server,
  today: string,
): Promise<{ cookie: string; emails: string[] }> {
  const joined = await fetch(`${server.url}/api/auth/join`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: 'owner@example.com', password }),
  });
  if (joined.status !== 201) throw new Error(`join answered ${joined.status}`);
  const cookie = (joined.headers.getSetCookie()[0] ?? '').split(';')[0] ?? '';
  const emails = Array.from({ length: clientCount }, (_, index) => `client.${index}@example.com`);
  let next = 0;
  const worker = async () => {
    while (next < emails.length) {
      const index = next++;
      const client = (await api(server, cookie, 'POST', '/api/clients', {
        firstName: 'Client',
        lastName: `Number${index}`,
        email: emails[index],
        phone: '+1 555 010 2030',
        balance: 0,
        currency: 'USD',
      })) as { id: string };
      await api(server, cookie, 'POST', `/api/clients/${client.id}/entries`, {
        kind: 'charge',
        amount: 10_000 + index,
        date: today,
        dueDate: today,
      });
    }
  };
  await Promise.all(Array.from({ length: 8 }, worker));
  await api(server, cookie, 'PUT', '/api/reminders/plan', {
    enabled: true,
    daysBefore: null,
    onDueDate: true,
    overdueEveryDays: null,
    overdueMax: 0,
    attachPdf: false,
    timeZone: 'UTC',
  });
  return { cookie, emails };
}

// --- The run -----------------------------------------------------------------------------

async function statusCounts(db: pg.Client): Promise<Record<string, number>> {
  const { rows } = await db.query<{ status: string; count: string }>(
    'select status, count(*) as count from reminders group by status',
  );
  return Object.fromEntries(rows.map((row) => [row.status, Number(row.count)]));
}

async function main(): Promise<number> {
  const began = performance.now();
  if (!existsSync(path.join(projectRoot, 'dist/server/main.js'))) {
    process.stdout.write('reminder-kill-test: no build yet, running npm run build\n');
    const build = spawn('npm', ['run', 'build'], { cwd: projectRoot, stdio: 'inherit' });
    const [code] = (await once(build, 'exit')) as [number | null];
    if (code !== 0) throw new Error(`npm run build exited with ${code}`);
  }

  const name = `balance_reminder_kill_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`create database ${name}`);
  const databaseUrl = new URL(adminUrl);
  databaseUrl.pathname = `/${name}`;
  const db = new pg.Client({ connectionString: databaseUrl.toString() });

  const mail = await startMailServers(2);
  const slots: (Server | null)[] = [null, null];
  const children = new Set<ChildProcess>();
  process.once('exit', () => children.forEach((child) => child.kill('SIGKILL')));
  const env = (slot: number) => ({
    DATABASE_URL: databaseUrl.toString(),
    SMTP_URL: mail.urls[slot] ?? '',
    MAIL_FROM: mailFrom,
    PUBLIC_URL: 'http://balance.example.com',
    REMINDER_LEASE_SECONDS: String(leaseSeconds),
    REMINDER_RUN_SECONDS: '1',
  });
  const start = async (slot: number) => {
    const server = await startServer(env(slot));
    children.add(server.child);
    void server.exited.then(() => children.delete(server.child));
    slots[slot] = server;
    return server;
  };

  let kills = 0;
  let killsMidData = 0;
  let killsWhileSending = 0;
  /** Per Message-ID, the kills that came right after it was accepted: each may send it again. */
  const killsAfter = new Map<string, number>();
  const kindsOfKill = { random: 0, data: 0, accepted: 0 };
  let counts: Record<string, number> = {};
  let apiSent = -1;
  const problems: string[] = [];
  try {
    // Seeded by a server without a mail server, whose sender sends nothing.
    const today = new Date().toISOString().slice(0, 10);
    const seeder = await startServer({ DATABASE_URL: databaseUrl.toString() });
    children.add(seeder.child);
    const { cookie, emails } = await seedOwner(seeder, today);
    seeder.child.kill('SIGTERM');
    await seeder.exited;
    await db.connect();
    const seededAt = performance.now();

    await Promise.all([start(0), start(1)]);
    const deadline = performance.now() + timeoutMs;
    const allSent = () => (counts.sent ?? 0) >= clientCount;
    while (!allSent() && performance.now() < deadline) {
      counts = await statusCounts(db);
      if (kills >= killTarget || allSent()) {
        await sleep(250);
        continue;
      }
      // Kill only while mail is going out: after a message was just accepted, or one is in DATA.
      const sending = [0, 1].filter(
        (slot) =>
          (mail.inData[slot] ?? 0) > 0 ||
          performance.now() - (mail.lastAcceptedAt[slot] ?? 0) < 150,
      );
      if (sending.length === 0) {
        await sleep(20);
        continue;
      }
      // Mostly the instance that sends; now and then the other, which may be waiting on a lock.
      const busy = sending[randomInt(sending.length)] ?? 0;
      const victim = random() < 0.8 ? busy : 1 - busy;
      // At a random moment; or just as one of the victim's messages is in DATA (it is refused
      // and must be sent again); or just after one was accepted, before the sender can record it
      // (decision 029's window: it is sent again, a duplicate).
      const moment = (['random', 'data', 'accepted'] as const)[randomInt(3)] ?? 'random';
      if (moment === 'random') await sleep(randomInt(400));
      else {
        const event = await new Promise<boolean>((resolve) => {
          const onEvent = (slot: number) => {
            if (slot !== victim) return;
            mail.events.off(moment, onEvent);
            resolve(true);
          };
          mail.events.on(moment, onEvent);
          void sleep(3000).then(() => {
            mail.events.off(moment, onEvent);
            resolve(false);
          });
        });
        if (!event) continue;
        await sleep(randomInt(moment === 'data' ? 25 : 3));
      }
      const server = slots[victim];
      if (!server) continue;
      kindsOfKill[moment] += 1;
      if ((mail.inData[victim] ?? 0) > 0) killsMidData += 1;
      if (performance.now() - (mail.lastAcceptedAt[victim] ?? 0) < 150) killsWhileSending += 1;
      slots[victim] = null;
      await kill(server);
      // The one message that may go out twice for this kill: the last its victim had accepted.
      const last = mail.lastAcceptedId[victim] ?? '';
      killsAfter.set(last, (killsAfter.get(last) ?? 0) + 1);
      kills += 1;
      await sleep(randomInt(1000));
      await start(victim);
    }
    const timedOut = !allSent();
    const sendSeconds = ((performance.now() - seededAt) / 1000).toFixed(1);

    const reader = slots[0] ?? slots[1];
    if (reader && clientCount <= 200) {
      const list = (await api(reader, cookie, 'GET', '/api/reminders?status=sent')) as {
        reminders: unknown[];
      };
      apiSent = list.reminders.length;
    }
    for (const server of slots) if (server) server.child.kill('SIGTERM');
    await Promise.all(slots.flatMap((server) => (server ? [server.exited] : [])));
    counts = await statusCounts(db);

    // --- The verdict
    const byClient = new Map<string, string[]>();
    for (const message of mail.received)
      byClient.set(message.to, [...(byClient.get(message.to) ?? []), message.messageId]);
    const distinct = new Set(mail.received.map((message) => message.messageId));
    const duplicates = mail.received.length - distinct.size;
    const copiesOf = new Map<string, number>();
    for (const { messageId } of mail.received)
      copiesOf.set(messageId, (copiesOf.get(messageId) ?? 0) + 1);
    const doubled = [...copiesOf].filter(([, copies]) => copies > 1);
    const unexplained = doubled.filter(
      ([messageId, copies]) => copies - 1 > (killsAfter.get(messageId) ?? 0),
    );
    const lost = emails.filter((email) => !byClient.has(email));
    const twoMessages = emails.filter((email) => new Set(byClient.get(email)).size > 1);
    const copies = emails.filter((email) => (byClient.get(email)?.length ?? 0) > 1);
    const strangers = [...byClient.keys()].filter((to) => !emails.includes(to));
    const { rows: sentIds } = await db.query<{ message_id: string }>(
      "select distinct message_id from reminders where status = 'sent'",
    );
    const unknownIds = sentIds.filter((row) => !distinct.has(row.message_id));

    if (timedOut) problems.push(`timed out after ${timeoutMs / 1000} s`);
    if (lost.length > 0)
      problems.push(`${lost.length} clients received nothing (${lost.slice(0, 5).join(', ')})`);
    if (twoMessages.length > 0)
      problems.push(`${twoMessages.length} clients received two different messages`);
    if (strangers.length > 0) problems.push(`mail to unknown addresses: ${strangers.join(', ')}`);
    if (distinct.size !== clientCount)
      problems.push(`${distinct.size} distinct Message-IDs for ${clientCount} clients`);
    if (duplicates > kills) problems.push(`${duplicates} duplicates for ${kills} kills`);
    if (unexplained.length > 0)
      problems.push(
        `${unexplained.length} messages went out more often than kills after their acceptance explain: ${unexplained
          .slice(0, 3)
          .map(([messageId, copies]) => `${messageId} (${copies} copies)`)
          .join(', ')}`,
      );
    if ((counts.sent ?? 0) !== clientCount)
      problems.push(`${counts.sent ?? 0} reminders are sent, not ${clientCount}`);
    if (apiSent !== -1 && apiSent !== clientCount)
      problems.push(`GET /api/reminders?status=sent lists ${apiSent}, not ${clientCount}`);
    if (unknownIds.length > 0)
      problems.push(`${unknownIds.length} reminders are sent whose Message-ID never arrived`);
    if (kills < killTarget) problems.push(`only ${kills} of ${killTarget} kills happened`);

    const seconds = ((performance.now() - began) / 1000).toFixed(1);
    process.stdout.write(
      `reminder-kill-test ${problems.length === 0 ? 'PASS' : 'FAIL'} (seed ${seed}): ` +
        `${clientCount} clients, ${kills} kills (${kindsOfKill.random} at a random moment, ${kindsOfKill.data} on a DATA, ${kindsOfKill.accepted} on an acceptance; ` +
        `${killsWhileSending} within 150 ms of an acceptance, ${killsMidData} with a message in DATA), ` +
        `received ${mail.received.length}, distinct ${distinct.size}, duplicates ${duplicates}` +
        (copies.length > 0
          ? ` (to ${copies.length} clients; every extra copy is of the last message a killed instance had had accepted: ${unexplained.length === 0 ? 'yes' : 'NO'})`
          : '') +
        `, reminders ${JSON.stringify(counts)}` +
        (apiSent === -1 ? '' : `, API lists ${apiSent} sent`) +
        `, sends took ${sendSeconds} s, ${seconds} s in all\n`,
    );
    if (errorLines.length > 0)
      process.stdout.write(
        `the servers logged ${errorLines.length} errors, the first:\n  ${errorLines.slice(0, 5).join('\n  ')}\n`,
      );
    for (const problem of problems) process.stdout.write(`  ${problem}\n`);
  } finally {
    for (const child of children) child.kill('SIGKILL');
    await mail.close();
    await db.end().catch(() => undefined);
    await admin.query(`drop database if exists ${name} with (force)`);
    await admin.end();
  }
  return problems.length === 0 ? 0 : 1;
}

process.exitCode = await main();
