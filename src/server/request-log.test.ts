import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { createMigratedTestDatabase, type TestDatabase } from '../../tests/db.ts';
import { testPasswordHashing } from '../../tests/app.ts';
import { buildApp } from './app.ts';
import { loadConfig } from './config.ts';

interface LogLine {
  reqId?: string;
  level: number;
  msg: string;
  [field: string]: unknown;
}

describe('the request log', () => {
  const lines: LogLine[] = [];
  let app: FastifyInstance;
  let database: TestDatabase;

  beforeAll(async () => {
    database = await createMigratedTestDatabase();
    const stream = new Writable({
      write(chunk: Buffer, _encoding, done) {
        for (const text of chunk.toString().split('\n'))
          if (text.trim() !== '') lines.push(JSON.parse(text) as LogLine);
        done();
      },
    });
    app = await buildApp({
      config: {
        ...loadConfig({ LOG_LEVEL: 'info' }),
        database: database.config,
        passwordHashing: testPasswordHashing,
      },
      clientDir: null,
      logger: { stream },
    });
  });

  afterAll(async () => {
    await app.close();
    await database.drop();
  });

  const linesOf = (reqId: string) => lines.filter((line) => line.reqId === reqId);

  it('has one line per request: method, address, status and time', async () => {
    const health = await app.inject({ method: 'GET', url: '/api/health' });
    const missing = await app.inject({ method: 'POST', url: '/api/nothing-here?page=2' });
    expect([health.statusCode, missing.statusCode]).toEqual([200, 404]);

    const requestIds = [...new Set(lines.flatMap((line) => (line.reqId ? [line.reqId] : [])))];
    expect(requestIds).toHaveLength(2);
    const [first, second] = requestIds.map((id) => linesOf(id));
    expect(first).toEqual([
      expect.objectContaining({
        level: 30,
        msg: 'request completed',
        method: 'GET',
        url: '/api/health',
        statusCode: 200,
        responseTime: expect.any(Number) as number,
      }),
    ]);
    expect(second).toEqual([
      expect.objectContaining({ method: 'POST', url: '/api/nothing-here?page=2', statusCode: 404 }),
    ]);
  });

  it('keeps the secret of an address out of its line', async () => {
    const before = lines.length;
    const token = 'Zk3uQ0b9x_Pa7-mN2cV8rT1yW4eH6jL5sD0fG9kA2qB';
    await app.inject({ method: 'GET', url: `/api/reset-password/${token}?access_token=x` });
    const added = lines.slice(before);
    expect(added).toHaveLength(1);
    expect(added[0]?.url).toBe('/api/reset-password/[redacted]?access_token=[redacted]');
    expect(JSON.stringify(added)).not.toContain(token);
  });
});
