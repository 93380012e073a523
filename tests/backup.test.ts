import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { describe, expect, it } from 'vitest';
import { strongPassword, uniqueEmail } from './auth.ts';
import { testDialect } from './db.ts';
import { buildClient } from './factories.ts';
import { projectRoot, startServerProcess } from './server-process.ts';

function runBackup(
  databaseFile: string,
  target: string,
): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['scripts/backup.ts', target], {
      cwd: projectRoot,
      env: { ...process.env, DATABASE_URL: databaseFile },
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.once('exit', (code) => resolve({ code, output }));
  });
}

describe.skipIf(testDialect !== 'sqlite')(
  "npm run backup (SQLite; PostgreSQL backups are pg_dump's job)",
  () => {
    it('copies a consistent database while the server is writing, and the copy serves again', async () => {
      const dir = await mkdtemp(path.join(os.tmpdir(), 'balance-backup-'));
      const databaseFile = path.join(dir, 'live.sqlite');
      const server = await startServerProcess({ DATABASE_URL: databaseFile });
      try {
        const join = await fetch(`${server.url}/api/auth/join`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ email: uniqueEmail(), password: strongPassword }),
        });
        const cookie = (join.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
        const acknowledged: string[] = [];
        let writing = true;
        const writer = (async () => {
          while (writing) {
            const response = await fetch(`${server.url}/api/clients`, {
              method: 'POST',
              headers: { 'content-type': 'application/json', cookie },
              body: JSON.stringify(buildClient()),
            });
            if (response.status === 201)
              acknowledged.push(((await response.json()) as { id: string }).id);
          }
        })();
        while (acknowledged.length < 20) await new Promise((resolve) => setTimeout(resolve, 20));
        const before = [...acknowledged];
        const backup = await runBackup(databaseFile, path.join(dir, 'copy.sqlite'));
        writing = false;
        await writer;
        expect(backup.code, backup.output).toBe(0);
        expect(backup.output).toContain('integrity ok');

        const copy = new DatabaseSync(path.join(dir, 'copy.sqlite'), { readOnly: true });
        const ids = new Set(
          (copy.prepare('SELECT id FROM clients').all() as { id: string }[]).map((row) => row.id),
        );
        const events = copy.prepare('SELECT count(*) AS n FROM events').get() as { n: number };
        copy.close();
        // Everything acknowledged before the backup began is in it, and each client has its event.
        expect(before.every((id) => ids.has(id))).toBe(true);
        expect(events.n).toBe(ids.size);

        // Restored, the copy is a working database.
        const restored = await startServerProcess({ DATABASE_URL: path.join(dir, 'copy.sqlite') });
        try {
          const list = await fetch(`${restored.url}/api/clients?limit=1`, { headers: { cookie } });
          expect(list.status).toBe(200);
          expect(((await list.json()) as { count: number }).count).toBe(ids.size);
        } finally {
          restored.child.kill('SIGTERM');
          await restored.exited;
        }
      } finally {
        server.child.kill('SIGTERM');
        await server.exited;
        await rm(dir, { recursive: true, force: true });
      }
    });

    it('refuses to overwrite an existing file, and names a missing database', async () => {
      const dir = await mkdtemp(path.join(os.tmpdir(), 'balance-backup-'));
      try {
        const missing = await runBackup(
          path.join(dir, 'nothing.sqlite'),
          path.join(dir, 'copy.sqlite'),
        );
        expect(missing.code).toBe(1);
        expect(missing.output).toContain('nothing to back up');
      } finally {
        await rm(dir, { recursive: true, force: true });
      }
    });
  },
);
