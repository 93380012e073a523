// `npm run backup [target-file]`: every table of the database as a portable file of JSON lines
// (readable by `npm run restore` on SQLite or PostgreSQL), read from one snapshot while the
// server keeps running. On SQLite, a target ending in .sqlite gives a copy of the database file
// instead (VACUUM INTO, also one snapshot).
import { mkdirSync, statSync } from 'node:fs';
import { open, rename, rm } from 'node:fs/promises';
import path from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { writeArchive } from '../src/server/db/archive.ts';
import { createDb } from '../src/server/db/database.ts';
import { databaseConfig, fail } from './database-config.ts';

const database = databaseConfig();

if (database.dialect === 'sqlite') {
  try {
    statSync(path.resolve(database.file));
  } catch {
    fail(
      `No database at ${path.resolve(database.file)}: nothing to back up (is DATABASE_URL right?)`,
    );
  }
}
const stamp = new Date().toISOString().replace(/[-:]/g, '').replace(/\..*$/, '').replace('T', '-');
const target = path.resolve(process.argv[2] ?? path.join('backups', `balance-${stamp}.jsonl`));
mkdirSync(path.dirname(target), { recursive: true });
try {
  statSync(target);
  fail(`${target} exists already; choose another name`);
} catch {
  // Free to write.
}

function copySqliteFile(source: string): void {
  const db = new DatabaseSync(source, { timeout: 10_000 });
  try {
    db.prepare('VACUUM INTO ?').run(target);
  } finally {
    db.close();
  }
  const copy = new DatabaseSync(target, { readOnly: true });
  const check = copy.prepare('PRAGMA integrity_check').get() as { integrity_check: string };
  const clients = copy.prepare('SELECT count(*) AS n FROM clients').get() as { n: number };
  copy.close();
  if (check.integrity_check !== 'ok')
    fail(`The copy failed its integrity check: ${check.integrity_check}`);
  process.stdout.write(
    `Backed up ${clients.n} clients to ${target} (${statSync(target).size} bytes, integrity ok)\n`,
  );
}

if (target.endsWith('.sqlite')) {
  if (database.dialect !== 'sqlite')
    fail(
      'A .sqlite copy can only be taken of an SQLite database; leave the name out or end it in .jsonl',
    );
  copySqliteFile(path.resolve(database.file));
  process.exit(0);
}

// Written under a temporary name and renamed at the end: a file with the final name is whole.
const partial = `${target}.partial`;
const file = await open(partial, 'wx');
const db = createDb(database);
let rows: Record<string, number>;
try {
  rows = await writeArchive(db, async (line) => {
    await file.write(`${line}\n`);
  });
  await file.sync();
  await file.close();
  await rename(partial, target);
} catch (error) {
  await file.close().catch(() => {});
  await rm(partial, { force: true });
  throw error;
} finally {
  await db.kysely.destroy();
}
const total = Object.values(rows).reduce((sum, n) => sum + n, 0);
process.stdout.write(
  `Backed up ${total} rows (${rows.clients ?? 0} clients, ${rows.entries ?? 0} ledger entries, ${rows.events ?? 0} history events, ${rows.users ?? 0} users) from ${database.dialect} to ${target} (${statSync(target).size} bytes)\n`,
);
