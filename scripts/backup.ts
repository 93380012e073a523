// `npm run backup [target-file]`: a consistent copy of the SQLite database, safe while the
// server runs (VACUUM INTO reads one snapshot). For PostgreSQL it says how to use pg_dump.
import { mkdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { ConfigError, loadConfig } from '../src/server/config.ts';

function fail(message: string): never {
  process.stderr.write(`${message}\n`);
  process.exit(1);
}

let database;
try {
  database = loadConfig().database;
} catch (error) {
  if (error instanceof ConfigError) fail(error.message);
  throw error;
}

if (database.dialect === 'postgres') {
  process.stdout.write(
    'DATABASE_URL points at PostgreSQL: back it up with its own tools, while the server runs:\n' +
      '  pg_dump --format=custom --file=balance-$(date +%Y%m%d-%H%M%S).dump "$DATABASE_URL"\n' +
      'and restore into an empty database with:\n' +
      '  pg_restore --clean --if-exists --no-owner --dbname="$DATABASE_URL" balance-YYYYMMDD-HHMMSS.dump\n',
  );
  process.exit(0);
}

const source = path.resolve(database.file);
try {
  statSync(source);
} catch {
  fail(`No database at ${source}: nothing to back up (is DATABASE_URL right?)`);
}
const stamp = new Date().toISOString().replace(/[-:]/g, '').replace(/\..*$/, '').replace('T', '-');
const target = path.resolve(process.argv[2] ?? path.join('backups', `balance-${stamp}.sqlite`));
mkdirSync(path.dirname(target), { recursive: true });
try {
  statSync(target);
  fail(`${target} exists already; choose another name`);
} catch {
  // Free to write.
}

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
