// `npm run restore FILE`: puts a backup from `npm run backup` (of SQLite or PostgreSQL) into the
// database DATABASE_URL names, which must be empty, with no server running against it.
import { createReadStream, statSync } from 'node:fs';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { ArchiveError, restoreArchive } from '../src/server/db/archive.ts';
import { createDb } from '../src/server/db/database.ts';
import { databaseConfig, fail } from './database-config.ts';

const source = process.argv[2];
if (!source) fail('Usage: npm run restore -- FILE   (a file written by npm run backup)');
try {
  statSync(source);
} catch {
  fail(`No file at ${path.resolve(source)}`);
}
if (source.endsWith('.sqlite'))
  fail(
    'A .sqlite copy is restored by putting it in place of the database file (docs/backup.md); npm run restore reads the .jsonl backups',
  );

const database = databaseConfig();

const db = createDb(database);
try {
  const lines = createInterface({ input: createReadStream(source), crlfDelay: Infinity });
  const { header, rows } = await restoreArchive(db, lines);
  const total = Object.values(rows).reduce((sum, n) => sum + n, 0);
  process.stdout.write(
    `Restored ${total} rows (${rows.clients ?? 0} clients, ${rows.entries ?? 0} ledger entries, ${rows.events ?? 0} history events, ${rows.users ?? 0} users, ${rows.sessions ?? 0} sessions) from a ${header.dialect} backup of ${header.takenAt} into ${database.dialect}\n`,
  );
} catch (error) {
  if (error instanceof ArchiveError) fail(`Nothing was restored: ${error.message}`);
  throw error;
} finally {
  await db.kysely.destroy();
}
