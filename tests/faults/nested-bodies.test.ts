import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serverNodeFlags } from '../../scripts/server-flags.ts';
import { createTestDatabase, testDialect, type TestDatabase } from '../db.ts';
import { startServerProcess, stopServer, type ServerProcess } from '../server-process.ts';
import { rounds } from './fault-run.ts';
import { joinOver } from './http.ts';

/** The server's resident memory now, or its peak so far (VmHWM), in bytes. */
function memoryBytes(pid: number, field: 'VmRSS' | 'VmHWM'): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1]) * 1024;
}

describe(`restore files of nothing but nesting or empty arrays, on a real server (${testDialect})`, () => {
  let database: TestDatabase;
  let server: ServerProcess;
  beforeAll(async () => {
    database = await createTestDatabase();
    server = await startServerProcess({ DATABASE_URL: database.url }, serverNodeFlags);
  });
  afterAll(async () => {
    await stopServer(server);
    await database.drop();
  });

  const head = '{"format":"balance-export","version":2,"x":';
  // As reported: 60 MB (under the 64 MiB limit) of nesting took a server to 3.7 GB, two at once
  // to its end; as many empty arrays side by side parse to 1.4 GB.
  const depth = 3e7 - 25;
  it.each([
    ['nested', `${head}${'['.repeat(depth)}${']'.repeat(depth)}}`],
    ['wide', `${head}[${'[],'.repeat(2e7 - 20)}[]]}`],
  ])(
    'refuses them (%s) without the memory their parse would take, and stays up',
    async (_, text) => {
      const cookie = await joinOver(server.url);
      const body = new TextEncoder().encode(text);
      const pid = server.child.pid ?? 0;
      const peakBefore = memoryBytes(pid, 'VmHWM');
      const upload = async () => {
        try {
          const answer = await fetch(`${server.url}/api/restore?dryRun=true`, {
            method: 'POST',
            headers: { cookie, 'content-type': 'application/json' },
            body,
          });
          return answer.status;
        } catch {
          // Refused part-way: the answer and the closed connection may beat the last of the body.
          return 0;
        }
      };
      for (let round = 0; round < rounds(1, 3); round += 1) {
        const statuses = await Promise.all([upload(), upload()]);
        for (const status of statuses) expect([0, 400]).toContain(status);
        expect(server.child.exitCode, server.output().slice(-2000)).toBeNull();
      }
      const growth = memoryBytes(pid, 'VmHWM') - peakBefore;
      expect(growth).toBeLessThanOrEqual(4 * body.length);
      const health = await fetch(`${server.url}/api/health`);
      expect(health.status).toBe(200);
    },
  );
});
