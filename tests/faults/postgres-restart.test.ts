import { execFile, execFileSync } from 'node:child_process';
import { chown, mkdtemp, rm } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { promisify } from 'node:util';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Client } from '../../src/shared/schemas/clients.ts';
import { buildClient } from '../factories.ts';
import { freePort, startServerProcess, type ServerProcess } from '../server-process.ts';
import { openStream, type TestStream } from '../sse.ts';
import { fullRun, rounds } from './fault-run.ts';
import { joinOver, type Answer } from './http.ts';

// This test starts, restarts and stops a PostgreSQL cluster of its own, on a free port in a
// temporary folder: the machine's shared server is never touched. It needs PostgreSQL's server
// programs (initdb, pg_ctl) and, when run as root, the `postgres` user to run them as
// (PostgreSQL refuses to run as root).

const run = promisify(execFile);

/** Where initdb and pg_ctl are: pg_config's answer first, then Debian's versioned folders. */
function findBinDir(): string | null {
  const candidates: string[] = [];
  try {
    candidates.push(execFileSync('pg_config', ['--bindir'], { encoding: 'utf8' }).trim());
  } catch {
    // No pg_config on the PATH: look where Debian puts the server.
  }
  try {
    const versions = execFileSync('ls', ['/usr/lib/postgresql'], { encoding: 'utf8' })
      .split('\n')
      .filter((name) => /^\d+$/.test(name))
      .sort((a, b) => Number(b) - Number(a));
    candidates.push(...versions.map((version) => `/usr/lib/postgresql/${version}/bin`));
  } catch {
    // No /usr/lib/postgresql either.
  }
  return (
    candidates.find(
      (dir) => existsSync(path.join(dir, 'initdb')) && existsSync(path.join(dir, 'pg_ctl')),
    ) ?? null
  );
}

function postgresUser(): { uid: number; gid: number } | null {
  try {
    const uid = Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).trim());
    const gid = Number(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' }).trim());
    return Number.isInteger(uid) && Number.isInteger(gid) ? { uid, gid } : null;
  } catch {
    return null;
  }
}

const binDir = findBinDir();
const runAsRoot = process.getuid?.() === 0;
const owner = runAsRoot ? postgresUser() : null;
const skipReason =
  binDir === null
    ? 'PostgreSQL server programs (initdb, pg_ctl) not found: neither `pg_config --bindir` nor /usr/lib/postgresql/*/bin has them (apt-get install postgresql)'
    : runAsRoot && owner === null
      ? 'running as root and there is no `postgres` user to run a PostgreSQL cluster as'
      : runAsRoot && !existsSync('/usr/sbin/runuser') && !existsSync('/sbin/runuser')
        ? 'running as root and runuser is missing'
        : null;
// The test needs no TEST_DATABASE_URL: it runs once, in the PostgreSQL project when there is
// one and in the SQLite project otherwise.
const thisProject =
  (process.env.TEST_DIALECT === 'postgres') === Boolean(process.env.TEST_DATABASE_URL);
if (thisProject && skipReason)
  process.stdout.write(`\n[faults] PostgreSQL restart test SKIPPED: ${skipReason}\n`);

/** Runs one of PostgreSQL's programs, as the postgres user when we are root. */
function pgTool(tool: string, args: string[]) {
  const program = path.join(binDir ?? '', tool);
  const [file, fileArgs] = runAsRoot
    ? ['runuser', ['-u', 'postgres', '--', program, ...args]]
    : [program, args];
  return run(file, fileArgs, { timeout: 120_000 });
}

/** A request with a bound: one that hangs past it is an answer of its own (status -1). */
async function send(
  baseUrl: string,
  method: string,
  urlPath: string,
  cookie: string,
  body?: object,
): Promise<Answer> {
  try {
    const response = await fetch(`${baseUrl}${urlPath}`, {
      method,
      headers: { cookie, ...(body ? { 'content-type': 'application/json' } : {}) },
      ...(body ? { body: JSON.stringify(body) } : {}),
      signal: AbortSignal.timeout(30_000),
    });
    return { status: response.status, body: await response.text() };
  } catch (error) {
    const timedOut = error instanceof Error && error.name === 'TimeoutError';
    return { status: timedOut ? -1 : 0, body: String(error) };
  }
}

type Fault = 'terminate backends' | 'fast restart' | 'immediate restart';

describe.skipIf(!thisProject || skipReason !== null)(
  'PostgreSQL restarted under load, with two instances (PostgreSQL only: a throwaway cluster of its own)',
  () => {
    let folder = '';
    let dataDir = '';
    let logFile = '';
    let adminUrl = '';
    let databaseName = '';
    const servers: ServerProcess[] = [];

    beforeAll(async () => {
      folder = await mkdtemp(path.join(os.tmpdir(), 'balance-pg-restart-'));
      if (owner) await chown(folder, owner.uid, owner.gid);
      dataDir = path.join(folder, 'data');
      logFile = path.join(folder, 'postgres.log');
      const port = await freePort();
      await pgTool('initdb', [
        '-D',
        dataDir,
        '-U',
        'postgres',
        '--auth=trust',
        '-E',
        'UTF8',
        '--no-sync',
      ]);
      // Its own port and socket folder; no fsync: this cluster's data is thrown away.
      await pgTool('pg_ctl', [
        '-D',
        dataDir,
        '-l',
        logFile,
        '-w',
        '-o',
        `-p ${port} -k ${folder} -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=60`,
        'start',
      ]);
      adminUrl = `postgres://postgres@127.0.0.1:${port}/postgres`;
      databaseName = 'balance_restart';
      const admin = new pg.Client({ connectionString: adminUrl });
      await admin.connect();
      await admin.query(`create database ${databaseName}`);
      await admin.end();
      const url = `postgres://postgres@127.0.0.1:${port}/${databaseName}`;
      // One after the other: the first runs the migrations.
      servers.push(await startServerProcess({ DATABASE_URL: url }));
      servers.push(await startServerProcess({ DATABASE_URL: url }));
    }, 180_000);

    afterAll(async () => {
      for (const server of servers) server.child.kill('SIGTERM');
      await Promise.all(servers.map((server) => server.exited));
      if (dataDir && existsSync(path.join(dataDir, 'postmaster.pid')))
        await pgTool('pg_ctl', ['-D', dataDir, '-m', 'immediate', '-w', 'stop']).catch(() => {});
      if (folder) await rm(folder, { recursive: true, force: true });
    }, 60_000);

    async function inject(fault: Fault): Promise<void> {
      if (fault === 'terminate backends') {
        const admin = new pg.Client({ connectionString: adminUrl });
        await admin.connect();
        try {
          await admin.query(
            'select pg_terminate_backend(pid) from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()',
            [databaseName],
          );
        } finally {
          await admin.end();
        }
        return;
      }
      const mode = fault === 'fast restart' ? 'fast' : 'immediate';
      await pgTool('pg_ctl', ['-D', dataDir, '-l', logFile, '-m', mode, '-w', 'restart']);
    }

    /** Both instances answer a signed-in read again. */
    async function untilServing(cookie: string): Promise<void> {
      for (let attempt = 0; attempt < 240; attempt += 1) {
        const answers = await Promise.all(
          servers.map((server) => send(server.url, 'GET', '/api/clients', cookie)),
        );
        if (answers.every((answer) => answer.status === 200)) return;
        await sleep(250);
      }
      throw new Error('the instances did not serve again after PostgreSQL came back');
    }

    it(
      'answers 503 for what it loses, keeps both processes up, serves again without a restart, and live streams catch up across instances',
      async () => {
        const [first, second] = servers;
        if (!first || !second) throw new Error('the instances did not start');
        // One owner signed in once: the session is in the database, so it works on both.
        const cookie = await joinOver(first.url);
        const stream: TestStream = await openStream(second.url, cookie);
        const answers: Answer[] = [];
        const faults: Fault[] = [];
        for (let round = 0; round < rounds(1, 3); round += 1)
          faults.push('terminate backends', 'fast restart', 'immediate restart');

        try {
          await stream.waitFor((message) => message.event === 'ready');
          for (const fault of faults) {
            let loading = true;
            // Four requests at a time on each instance, reads and adds, until the fault is over.
            const workers = servers.flatMap((server) =>
              Array.from({ length: 4 }, async (_, index) => {
                while (loading) {
                  answers.push(
                    index % 2 === 0
                      ? await send(server.url, 'GET', '/api/clients', cookie)
                      : await send(server.url, 'POST', '/api/clients', cookie, buildClient()),
                  );
                }
              }),
            );
            await sleep(300);
            await inject(fault);
            await untilServing(cookie);
            loading = false;
            await Promise.all(workers);
            for (const server of servers)
              expect(server.child.exitCode, `${fault}: ${server.output().slice(-4000)}`).toBeNull();

            // A change written on the first instance after the fault reaches the stream held
            // by the second: its LISTEN connection came back, or the log is caught up from.
            const added = await send(first.url, 'POST', '/api/clients', cookie, buildClient());
            expect(added.status, added.body).toBe(201);
            const { id } = JSON.parse(added.body) as Client;
            await stream.waitFor(
              (message) => message.event === 'change' && message.data.includes(id),
              30_000,
            );
          }
        } finally {
          stream.close();
        }

        const count = (check: (status: number) => boolean) =>
          answers.filter((answer) => check(answer.status)).length;
        const succeeded = count((status) => status === 200 || status === 201);
        const unavailable = count((status) => status === 503);
        process.stdout.write(
          `[faults] two instances, ${faults.length} faults (${faults.join(', ')}): ${answers.length} requests, ${succeeded} succeeded, ${unavailable} answered 503, ${answers.length - succeeded - unavailable} other (${count((status) => status <= 0)} hung or failed on the network)\n`,
        );
        const unexpected = answers.filter((answer) => ![200, 201, 503].includes(answer.status));
        expect(
          unexpected,
          servers.map((server) => server.output().slice(-3000)).join('\n'),
        ).toEqual([]);
        for (const answer of answers.filter(({ status }) => status === 503)) {
          expect(JSON.parse(answer.body)).toMatchObject({ error: { code: 'unavailable' } });
        }
        // Some requests really met the fault: otherwise the test proved nothing.
        expect(unavailable).toBeGreaterThan(0);
        for (const server of servers) {
          expect(server.child.exitCode).toBeNull();
          expect(server.output()).not.toMatch(/"level":60/);
        }
        if (fullRun) expect(faults.length).toBeGreaterThanOrEqual(9);
      },
      fullRun ? 600_000 : 240_000,
    );
  },
);
