import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/server/app.ts';
import { loadConfig } from '../../src/server/config.ts';
import { joinAs } from '../auth.ts';
import { createTestDatabase, testDialect, type TestDatabase } from '../db.ts';
import { buildClient } from '../factories.ts';

describe.runIf(testDialect === 'sqlite')('a crashed SQLite writer thread (SQLite only)', () => {
  let database: TestDatabase;
  let app: Awaited<ReturnType<typeof buildApp>>;
  let cookie: string;
  const fatal: Error[] = [];
  const logLines: string[] = [];

  beforeAll(async () => {
    database = await createTestDatabase('sqlite');
    app = await buildApp({
      config: { ...loadConfig({}), database: database.config },
      logger: { level: 'fatal', stream: { write: (line: string) => logLines.push(line) } },
      onFatal: (error) => fatal.push(error),
    });
    ({ cookie } = await joinAs(app));
  });

  afterAll(async () => {
    await app.close();
    await database.drop();
  });

  it('is reported by health (503) and as fatal, so the process can be started afresh', async () => {
    const before = await app.inject({ method: 'GET', url: '/api/health' });
    expect(before.statusCode, before.body).toBe(200);

    await app.db.sqlite?.crashWriter();

    // Writes fail from now on, while the readers would still answer health's `select 1`.
    const write = await app.inject({
      method: 'POST',
      url: '/api/clients',
      headers: { cookie },
      payload: buildClient(),
    });
    expect(write.statusCode).toBeGreaterThanOrEqual(500);
    const health = await app.inject({ method: 'GET', url: '/api/health' });
    expect(health.statusCode, health.body).toBe(503);
    expect(health.json()).toEqual({
      status: 'unavailable',
      database: 'sqlite',
      problem: 'database_stopped',
      message: 'The database stopped working (the SQLite writer); the server must be restarted',
    });
    expect(fatal.map((error) => error.message)).toEqual(['the SQLite writer stopped (1)']);
    expect(logLines.join('')).toContain('an SQLite worker thread stopped');
  });
});
