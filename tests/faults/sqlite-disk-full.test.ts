import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/server/app.ts';
import { loadConfig } from '../../src/server/config.ts';
import { joinAs } from '../auth.ts';
import { createTestDatabase, testDialect, type TestDatabase } from '../db.ts';
import { buildClient } from '../factories.ts';

describe.runIf(testDialect === 'sqlite')('SQLite on a full disk (SQLite only)', () => {
  let database: TestDatabase;
  let app: Awaited<ReturnType<typeof buildApp>>;
  let cookie: string;
  const logLines: string[] = [];

  beforeAll(async () => {
    database = await createTestDatabase('sqlite');
    app = await buildApp({
      config: { ...loadConfig({}), database: database.config },
      logger: { level: 'error', stream: { write: (line: string) => logLines.push(line) } },
    });
    ({ cookie } = await joinAs(app));
  });

  afterAll(async () => {
    await app.close();
    await database.drop();
  });

  const pageCount = async () =>
    (await sql<{ page_count: number }>`pragma page_count`.execute(app.db.kysely)).rows[0]
      ?.page_count ?? 0;
  const add = () =>
    app.inject({
      method: 'POST',
      url: '/api/clients',
      headers: { cookie },
      // Long names fill pages quickly.
      payload: buildClient({ firstName: 'F'.repeat(100), lastName: 'L'.repeat(100) }),
    });

  it('answers 507 with a clear message, logs the real cause, reports it in health, and recovers', async () => {
    // The file may not grow any more: the next few writes fill what is left.
    await sql.raw(`pragma max_page_count = ${(await pageCount()) + 2}`).execute(app.db.kysely);
    let answer = await add();
    for (let tries = 0; answer.statusCode === 201 && tries < 200; tries += 1) answer = await add();
    expect(answer.statusCode, answer.body).toBe(507);
    expect(answer.json()).toEqual({
      error: { code: 'disk_full', message: "The server's disk is full" },
    });
    const logged = logLines.join('\n');
    expect(logged).toContain('database or disk is full');
    expect(logged).not.toContain('cannot rollback');

    const health = await app.inject({ method: 'GET', url: '/api/health' });
    expect(health.statusCode).toBe(503);
    expect(health.json()).toMatchObject({ status: 'degraded', problem: 'disk_full' });
    // Reads still work on a full disk.
    const list = await app.inject({ method: 'GET', url: '/api/clients', headers: { cookie } });
    expect(list.statusCode).toBe(200);

    // Space comes back: writes succeed again without a restart, and health says so.
    await sql.raw('pragma max_page_count = 1073741823').execute(app.db.kysely);
    const again = await add();
    expect(again.statusCode, again.body).toBe(201);
    const healthy = await app.inject({ method: 'GET', url: '/api/health' });
    expect(healthy.json()).toEqual({ status: 'ok', database: 'sqlite' });
  });
});
