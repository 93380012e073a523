import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { migrations } from '../../src/server/db/migrations/index.ts';
import { createTestDatabase, testDialect, type TestDatabase } from '../db.ts';
import { freePort, launchServerProcess, type LaunchedServer } from '../server-process.ts';
import { fullRun } from './fault-run.ts';
import { joinOver } from './http.ts';
import { startTcpProxy, type TcpProxy } from './tcp-proxy.ts';

// A server started while PostgreSQL does not answer: frozen (connections accepted, nothing
// answered, as with a stopped server or a cut network) or refusing connections (not up yet). It
// must listen, answer 503, keep trying, and serve once PostgreSQL is back, with no restart.

interface Instance {
  server: LaunchedServer;
  url: string;
}

interface Answer {
  status: number;
  body: string;
  retryAfter: string | null;
}

/** One GET; nobody listening is an answer too (status 0). */
async function get(url: string): Promise<Answer> {
  try {
    const response = await fetch(url, { signal: AbortSignal.timeout(10_000) });
    return {
      status: response.status,
      body: await response.text(),
      retryAfter: response.headers.get('retry-after'),
    };
  } catch (error) {
    return { status: 0, body: String(error), retryAfter: null };
  }
}

/** Polls until `check` holds; fails early, with its output, if the server has ended. */
async function until(
  instance: Instance,
  check: () => Promise<boolean> | boolean,
  what: string,
  tries = 240,
): Promise<void> {
  for (let attempt = 0; attempt < tries; attempt += 1) {
    if (instance.server.child.exitCode !== null)
      throw new Error(
        `the server exited (${instance.server.child.exitCode}) before ${what}:\n${instance.server.output()}`,
      );
    if (await check()) return;
    await sleep(250);
  }
  throw new Error(`gave up waiting until ${what}:\n${instance.server.output().slice(-4000)}`);
}

const warningsOf = (instance: Instance) =>
  instance.server
    .output()
    .split('\n')
    .filter((line) => line.includes('"level":40') && line.includes('not reachable yet')).length;

describe.runIf(testDialect === 'postgres')(
  'PostgreSQL not answering when the server starts (PostgreSQL only)',
  () => {
    let proxy: TcpProxy;
    const databases: TestDatabase[] = [];
    const instances: Instance[] = [];

    beforeAll(async () => {
      const admin = new URL(process.env.TEST_DATABASE_URL ?? '');
      proxy = await startTcpProxy({ host: admin.hostname, port: Number(admin.port || 5432) });
    });

    afterEach(async () => {
      proxy.heal();
      for (const { server } of instances.splice(0)) {
        server.child.kill('SIGTERM');
        await server.exited;
      }
    });

    afterAll(async () => {
      await proxy.close();
      for (const database of databases) await database.drop();
    });

    /** An empty database reached through the proxy: the server's own migrations fill it. */
    async function databaseBehindProxy(): Promise<{ direct: string; viaProxy: string }> {
      const database = await createTestDatabase('postgres');
      databases.push(database);
      const viaProxy = new URL(database.url);
      viaProxy.port = String(proxy.port);
      return { direct: database.url, viaProxy: viaProxy.toString() };
    }

    async function launch(env: Record<string, string>): Promise<Instance> {
      const port = await freePort();
      const server = launchServerProcess({ ...env, PORT: String(port) });
      const instance = { server, url: `http://127.0.0.1:${port}` };
      instances.push(instance);
      return instance;
    }

    const faults = fullRun ? (['frozen', 'refusing'] as const) : (['frozen'] as const);
    for (const fault of faults) {
      it(`two instances started while PostgreSQL is ${fault} listen, answer 503 while they keep trying, then migrate once and serve without a restart`, async () => {
        if (fault === 'frozen') proxy.freeze();
        else proxy.cutAndRefuse();
        const { direct, viaProxy } = await databaseBehindProxy();
        const env = {
          DATABASE_URL: viaProxy,
          DATABASE_CONNECT_TIMEOUT_SECONDS: '0.5',
          DATABASE_STATEMENT_TIMEOUT_SECONDS: '1',
        };
        const both = [await launch(env), await launch(env)];

        for (const instance of both) {
          let health: Answer = { status: 0, body: '', retryAfter: null };
          await until(
            instance,
            async () => {
              health = await get(`${instance.url}/api/health`);
              return health.status !== 0;
            },
            'it listens',
          );
          expect(health.status, health.body).toBe(503);
          expect(JSON.parse(health.body)).toEqual({
            status: 'unavailable',
            database: 'postgres',
            problem: 'database_unreachable',
            message: expect.stringMatching(/not reachable yet/) as unknown,
          });
          const list = await get(`${instance.url}/api/clients`);
          expect(list.status, list.body).toBe(503);
          expect(JSON.parse(list.body)).toEqual({
            error: { code: 'unavailable', message: expect.stringMatching(/database/i) as unknown },
          });
          expect(list.retryAfter).toBe('5');
        }
        // Each failed attempt is said; the full run lets a few go by (1 s, 2 s, 4 s apart).
        const attempts = fullRun ? 4 : 1;
        for (const instance of both)
          await until(instance, () => warningsOf(instance) >= attempts, `${attempts} attempts`);
        for (const instance of both) {
          expect(instance.server.output()).not.toMatch(/Balance is running at/);
          expect((await get(`${instance.url}/api/health`)).status).toBe(503);
        }

        proxy.heal();
        for (const instance of both) {
          await until(
            instance,
            async () => (await get(`${instance.url}/api/health`)).status === 200,
            'it is ready',
          );
          expect(instance.server.output()).toMatch(/Balance is running at http:\/\/127\.0\.0\.1:/);
          // Migrated and serving: an owner joins and reads.
          const cookie = await joinOver(instance.url);
          const response = await fetch(`${instance.url}/api/clients`, { headers: { cookie } });
          expect(response.status).toBe(200);
        }
        // Both ran the migrator at once; its lock let one of them apply each migration, once.
        const client = new pg.Client({ connectionString: direct });
        await client.connect();
        try {
          const applied = await client.query<{ name: string }>(
            'select name from kysely_migration order by name',
          );
          expect(applied.rows.map((row) => row.name)).toEqual(Object.keys(migrations).sort());
        } finally {
          await client.end();
        }
        for (const { server } of both) {
          expect(server.child.exitCode).toBeNull();
          expect(server.output()).not.toMatch(/"level":(50|60)/);
        }
      }, 120_000);
    }

    it('ends at once on SIGTERM while it waits for a PostgreSQL that never answers', async () => {
      proxy.freeze();
      const { viaProxy } = await databaseBehindProxy();
      // Each attempt could wait a minute: only giving up on it ends the process soon.
      const instance = await launch({
        DATABASE_URL: viaProxy,
        DATABASE_CONNECT_TIMEOUT_SECONDS: '60',
        DATABASE_STATEMENT_TIMEOUT_SECONDS: '60',
      });
      await until(
        instance,
        async () => (await get(`${instance.url}/api/health`)).status === 503,
        'it answers health',
      );
      instance.server.child.kill('SIGTERM');
      const ended = await Promise.race([
        instance.server.exited,
        sleep(15_000).then(() => 'still running' as const),
      ]);
      expect(ended, instance.server.output().slice(-4000)).toBe(0);
    }, 60_000);
  },
);
