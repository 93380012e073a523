import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { describe, expect, it } from 'vitest';
import { strongPassword, uniqueEmail } from './auth.ts';
import { createTestDatabase, otherDialect, testDialect } from './db.ts';
import { buildClient } from './factories.ts';
import { projectRoot, startServerProcess, stopServer } from './server-process.ts';

function runScript(
  script: 'backup' | 'restore',
  databaseUrl: string,
  file: string,
): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [`scripts/${script}.ts`, file], {
      cwd: projectRoot,
      env: { ...process.env, DATABASE_URL: databaseUrl },
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.once('exit', (code) => resolve({ code, output }));
  });
}

const runBackup = (databaseUrl: string, target: string) => runScript('backup', databaseUrl, target);

describe.skipIf(testDialect !== 'sqlite')('npm run backup to a .sqlite copy (SQLite only)', () => {
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
        await stopServer(restored);
      }
    } finally {
      await stopServer(server);
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
});

async function signUp(url: string): Promise<string> {
  const join = await fetch(`${url}/api/auth/join`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: uniqueEmail(), password: strongPassword }),
  });
  expect(join.status).toBe(201);
  return (join.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
}

describe(`npm run backup and npm run restore (${testDialect} to ${otherDialect})`, () => {
  // Two servers and three scripts start one after another: a slow test on a busy machine.
  it('a backup taken while clients and payments are written restores every acknowledged write, consistent', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'balance-backup-'));
    const source = await createTestDatabase(testDialect);
    const target = await createTestDatabase(otherDialect);
    const server = await startServerProcess({ DATABASE_URL: source.url });
    try {
      const cookie = await signUp(server.url);
      const post = (url: string, body: object) =>
        fetch(`${server.url}${url}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', cookie },
          body: JSON.stringify(body),
        });
      const clients: string[] = [];
      const payments: number[] = [];
      let writing = true;
      const writer = async (lane: number) => {
        for (let i = 0; writing; i += 1) {
          // Every other write is a payment against a client acknowledged earlier.
          const id = clients[(i * 7 + lane) % Math.max(clients.length, 1)];
          if (i % 2 === 1 && id) {
            const response = await post(`/api/clients/${id}/entries`, {
              kind: 'payment',
              amount: 1 + lane,
            });
            expect(response.status).toBe(201);
            payments.push(
              ((await response.json()) as { entry: { entryId: number } }).entry.entryId,
            );
          } else {
            const response = await post('/api/clients', buildClient({ balance: 100 }));
            expect(response.status).toBe(201);
            clients.push(((await response.json()) as { id: string }).id);
          }
        }
      };
      const writers = [writer(0), writer(1), writer(2)];
      while (clients.length < 30 || payments.length < 20)
        await new Promise((resolve) => setTimeout(resolve, 20));
      const clientsBefore = [...clients];
      const paymentsBefore = [...payments];
      const file = path.join(dir, 'backup.jsonl');
      const backup = await runScript('backup', source.url, file);
      writing = false;
      await Promise.all(writers);
      expect(backup.code, backup.output).toBe(0);
      expect(backup.output).toMatch(/Backed up \d+ rows/);

      const restore = await runScript('restore', target.url, file);
      expect(restore.code, restore.output).toBe(0);
      expect(restore.output).toContain(`into ${otherDialect}`);
      const again = await runScript('restore', target.url, file);
      expect(again.code).toBe(1);
      expect(again.output).toContain('Nothing was restored: the database is not empty');

      const lines = (await readFile(file, 'utf8')).trim().split('\n');
      expect(JSON.parse(lines[0] ?? '{}')).toMatchObject({ dialect: testDialect });

      const restored = await startServerProcess({ DATABASE_URL: target.url });
      try {
        const ids = new Set<string>();
        let cursor: string | null = null;
        do {
          const page = await fetch(
            `${restored.url}/api/clients?limit=200${cursor ? `&cursor=${cursor}` : ''}`,
            { headers: { cookie } },
          );
          expect(page.status).toBe(200);
          const body = (await page.json()) as {
            clients: { id: string }[];
            nextCursor: string | null;
          };
          for (const client of body.clients) ids.add(client.id);
          cursor = body.nextCursor;
        } while (cursor);
        // Every client and payment acknowledged before the backup began came back.
        expect(clientsBefore.filter((id) => !ids.has(id))).toEqual([]);
        const entryIds = new Set<number>();
        for (const id of ids) {
          const [client, ledger, history] = await Promise.all(
            [`/api/clients/${id}`, `/api/clients/${id}/entries`, `/api/clients/${id}/history`].map(
              async (url): Promise<unknown> =>
                (await fetch(`${restored.url}${url}`, { headers: { cookie } })).json(),
            ),
          );
          const entries = (ledger as { entries: { id: number; amount: number }[] }).entries;
          for (const entry of entries) entryIds.add(entry.id);
          // Consistent: the balance is the sum of the entries, and every entry has its event.
          expect((client as { balance: number }).balance).toBe(
            entries.reduce((sum, entry) => sum + entry.amount, 0),
          );
          const actions = (history as { entries: { action: string }[] }).entries.map(
            (event) => event.action,
          );
          expect(actions.filter((action) => action === 'created')).toHaveLength(1);
          expect(actions.filter((action) => action === 'entry_recorded')).toHaveLength(
            entries.length - 1,
          );
        }
        expect(paymentsBefore.filter((id) => !entryIds.has(id))).toEqual([]);
      } finally {
        await stopServer(restored);
      }
    } finally {
      await stopServer(server);
      await target.drop();
      await source.drop();
      await rm(dir, { recursive: true, force: true });
    }
  }, 90_000);
});
