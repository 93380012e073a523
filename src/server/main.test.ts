import http from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { createTestDatabase } from '../../tests/db.ts';
import { runServerToExit, startServerProcess } from '../../tests/server-process.ts';

describe('the server process', () => {
  it('refuses to start with a bad PORT and names it', async () => {
    const { code, output } = await runServerToExit({ PORT: 'not-a-port' });
    expect(code).toBe(1);
    expect(output).toContain('PORT="not-a-port"');
    expect(output).toContain('must be a whole number from 0 to 65535');
  });

  it('finishes a request in flight, then exits cleanly on SIGTERM', async () => {
    const database = await createTestDatabase();
    const server = await startServerProcess({ DATABASE_URL: database.url });
    try {
      expect((await fetch(`${server.url}/api/health`)).status).toBe(200);
      // A request whose body is still arriving when the signal comes must still get its answer.
      const body = JSON.stringify({ slow: true });
      const request = http.request(`${server.url}/api/nothing-here`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'content-length': String(body.length) },
      });
      const answered = new Promise<number | undefined>((resolve, reject) => {
        request.once('response', (response) => {
          response.resume();
          resolve(response.statusCode);
        });
        request.once('error', reject);
      });
      request.write(body.slice(0, 5));
      await sleep(200);
      server.child.kill('SIGTERM');
      await sleep(200);
      request.end(body.slice(5));
      expect(await answered).toBe(404);
      expect(await server.exited).toBe(0);
      expect(server.output()).toContain('shutting down');
    } finally {
      server.child.kill('SIGKILL');
      await database.drop();
    }
  });

  it('says where it runs in one plain line and, at the default log level, nothing per request', async () => {
    const database = await createTestDatabase();
    const server = await startServerProcess({ DATABASE_URL: database.url, LOG_LEVEL: '' });
    try {
      expect((await fetch(`${server.url}/api/health`)).status).toBe(200);
      server.child.kill('SIGTERM');
      expect(await server.exited).toBe(0);
      const lines = server.output().trimEnd().split('\n');
      // A warning may come too (the browser app not built, in a checkout that never built it).
      expect(lines.filter((line) => !line.startsWith('{'))).toEqual([
        `Balance is running at ${server.url}`,
      ]);
      expect(lines.filter((line) => line.includes('/api/health'))).toEqual([]);
    } finally {
      server.child.kill('SIGKILL');
      await database.drop();
    }
  });

  it('exits cleanly on SIGINT', async () => {
    const database = await createTestDatabase();
    const server = await startServerProcess({ DATABASE_URL: database.url });
    try {
      server.child.kill('SIGINT');
      expect(await server.exited).toBe(0);
    } finally {
      await database.drop();
    }
  });
});
