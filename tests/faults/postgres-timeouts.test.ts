import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/server/app.ts';
import { loadConfig, type Config } from '../../src/server/config.ts';
import { createDb } from '../../src/server/db/database.ts';
import { databaseFault } from '../../src/server/db/errors.ts';
import { joinAs } from '../auth.ts';
import { createTestDatabase, testDialect, type TestDatabase } from '../db.ts';
import { rounds } from './fault-run.ts';
import { startTcpProxy, type TcpProxy } from './tcp-proxy.ts';

const timeouts = { connectMs: 400, statementMs: 400, idleInTransactionMs: 400 };
/** A database that does not answer: health's own wait ended, or pg's read timeout did. */
const silentDatabaseProblem = expect.stringMatching(/^database_(timeout|unreachable)$/) as unknown;
const unavailable = {
  error: { code: 'unavailable', message: expect.stringMatching(/database/i) as unknown },
};

describe.runIf(testDialect === 'postgres')(
  'PostgreSQL that does not answer (PostgreSQL only)',
  () => {
    let database: TestDatabase;
    let proxy: TcpProxy;
    let app: Awaited<ReturnType<typeof buildApp>>;
    let cookie: string;

    beforeAll(async () => {
      database = await createTestDatabase('postgres');
      const direct = new URL(database.url);
      proxy = await startTcpProxy({ host: direct.hostname, port: Number(direct.port || 5432) });
      const viaProxy = new URL(database.url);
      viaProxy.port = String(proxy.port);
      const config: Config = {
        ...loadConfig({}),
        database: { dialect: 'postgres', connectionString: viaProxy.toString() },
        databaseTimeouts: timeouts,
      };
      app = await buildApp({ config });
      ({ cookie } = await joinAs(app));
    });

    afterAll(async () => {
      proxy.heal();
      await app.close();
      await proxy.close();
      await database.drop();
    });

    it('answers 503 while PostgreSQL is silent, health says it is unreachable, then recovers', async () => {
      proxy.freeze();
      const health = await app.inject({ method: 'GET', url: '/api/health' });
      expect(health.statusCode, health.body).toBe(503);
      // pg's own read timeout (1.4 s here) and health's wait (1.5 s) are close: either may end it.
      expect(health.json()).toMatchObject({
        status: 'unavailable',
        problem: silentDatabaseProblem,
      });
      const list = await app.inject({ method: 'GET', url: '/api/clients', headers: { cookie } });
      expect(list.statusCode, list.body).toBe(503);
      expect(list.json()).toEqual(unavailable);
      expect(list.headers['retry-after']).toBe('5');

      proxy.heal();
      const after = await app.inject({ method: 'GET', url: '/api/clients', headers: { cookie } });
      expect(after.statusCode, after.body).toBe(200);
      const healthy = await app.inject({ method: 'GET', url: '/api/health' });
      expect(healthy.json()).toEqual({ status: 'ok', database: 'postgres' });
    });

    it('answers 503 while PostgreSQL restarts (connections cut, new ones refused), then recovers', async () => {
      proxy.cutAndRefuse();
      const list = await app.inject({ method: 'GET', url: '/api/clients', headers: { cookie } });
      expect(list.statusCode, list.body).toBe(503);
      expect(list.json()).toEqual(unavailable);
      const health = await app.inject({ method: 'GET', url: '/api/health' });
      expect(health.statusCode).toBe(503);

      proxy.heal();
      const after = await app.inject({ method: 'GET', url: '/api/clients', headers: { cookie } });
      expect(after.statusCode, after.body).toBe(200);
    });
  },
);

describe.runIf(testDialect === 'postgres')(
  'health while PostgreSQL is frozen, with the default timeouts (PostgreSQL only)',
  () => {
    let database: TestDatabase;
    let proxy: TcpProxy;
    let app: Awaited<ReturnType<typeof buildApp>>;
    /** A load balancer's usual health-check timeout: an answer after it is no answer. */
    const loadBalancerTimeoutMs = 5000;

    beforeAll(async () => {
      database = await createTestDatabase('postgres');
      const direct = new URL(database.url);
      proxy = await startTcpProxy({ host: direct.hostname, port: Number(direct.port || 5432) });
      const viaProxy = new URL(database.url);
      viaProxy.port = String(proxy.port);
      // The default timeouts: a statement may take 15 s, so health must not wait for it.
      app = await buildApp({
        config: {
          ...loadConfig({}),
          database: { dialect: 'postgres', connectionString: viaProxy.toString() },
        },
      });
      await app.ready();
    });

    afterAll(async () => {
      proxy.heal();
      await app.close();
      await proxy.close();
      await database.drop();
    });

    it('answers 503 database_timeout on every check instead of hanging, then ok once healed', async () => {
      proxy.freeze();
      for (let check = 0; check < rounds(3, 12); check++) {
        const started = performance.now();
        const health = await app.inject({ method: 'GET', url: '/api/health' });
        const waitedMs = performance.now() - started;
        expect(waitedMs, `check ${check} answered after ${Math.round(waitedMs)} ms`).toBeLessThan(
          loadBalancerTimeoutMs,
        );
        expect(health.statusCode, health.body).toBe(503);
        // Once pg gives up on the frozen query (after 16 s), a check may meet that failure.
        expect(health.json()).toMatchObject({
          status: 'unavailable',
          problem: check === 0 ? 'database_timeout' : silentDatabaseProblem,
        });
      }

      proxy.heal();
      const healthy = await app.inject({ method: 'GET', url: '/api/health' });
      expect(healthy.json()).toEqual({ status: 'ok', database: 'postgres' });
    }, 120_000);
  },
);

describe.runIf(testDialect === 'postgres')(
  'PostgreSQL server-side timeouts (PostgreSQL only)',
  () => {
    let database: TestDatabase;
    let db: ReturnType<typeof createDb>;

    beforeAll(async () => {
      database = await createTestDatabase('postgres');
      db = createDb(database.config, () => {}, timeouts);
    });

    afterAll(async () => {
      await db.kysely.destroy();
      await database.drop();
    });

    it('ends a statement that runs past the statement timeout, as a fault that answers 503', async () => {
      const error: unknown = await sql`select pg_sleep(5)`
        .execute(db.kysely)
        .catch((e: unknown) => e);
      expect(error).toMatchObject({ code: '57014' });
      expect(databaseFault(error)).toBe('unavailable');
    });

    it('ends a transaction left idle past the idle-in-transaction timeout', async () => {
      const error: unknown = await db.kysely
        .transaction()
        .execute(async (trx) => {
          await sql`select 1`.execute(trx);
          await new Promise((resolve) => setTimeout(resolve, timeouts.idleInTransactionMs * 3));
          await sql`select 1`.execute(trx);
        })
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(Error);
      expect(databaseFault(error)).toBe('unavailable');
      // The pool dropped the ended connection: the next query gets a fresh one.
      const { rows } = await sql<{ one: number }>`select 1 as one`.execute(db.kysely);
      expect(rows).toEqual([{ one: 1 }]);
    });
  },
);
