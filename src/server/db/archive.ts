import { sql, type Kysely, type RawBuilder } from 'kysely';
import { Migrator } from 'kysely/migration';
import type { Database, Db, Dialect, Executor } from './database.ts';
import { migrations } from './migrations/index.ts';

// Restored only into an empty database with no server running, so rows go straight into the
// tables, not through the write path.

const archiveFormat = 'balance-backup';
const archiveVersion = 1;

interface ArchiveHeader {
  format: typeof archiveFormat;
  version: number;
  takenAt: string;
  dialect: Dialect;
  migrations: string[];
  /** It may be past the highest id. */
  sequences: Record<string, number>;
}

interface TableLine {
  table: string;
  columns: string[];
}

/** A file cut short has none, and is refused. */
interface EndLine {
  end: true;
  rows: Record<string, number>;
}

type Row = Record<string, unknown>;

const migrationTables = new Set(['kysely_migration', 'kysely_migration_lock']);

/** Triggers fill SQLite's search index again as the clients are restored. */
export const isDerivedTable = (name: string) =>
  name === 'clients_search' || name.startsWith('clients_search_');

export class ArchiveError extends Error {
  override name = 'ArchiveError';
}

async function tableNames(db: Executor): Promise<string[]> {
  const tables = await db.introspection.getTables();
  return tables
    .map((table) => table.name)
    .filter((name) => !migrationTables.has(name) && !isDerivedTable(name));
}

async function insertOrder(db: Executor, dialect: Dialect, tables: string[]): Promise<string[]> {
  const { rows } =
    dialect === 'sqlite'
      ? await sql<{ tbl: string; ref: string }>`
          select m.name as tbl, p."table" as ref
          from sqlite_master m join pragma_foreign_key_list(m.name) p
          where m.type = 'table'`.execute(db)
      : await sql<{ tbl: string; ref: string }>`
          select tc.table_name as tbl, ccu.table_name as ref
          from information_schema.table_constraints tc
          join information_schema.constraint_column_usage ccu
            on ccu.constraint_schema = tc.constraint_schema
           and ccu.constraint_name = tc.constraint_name
          where tc.constraint_type = 'FOREIGN KEY' and tc.table_schema = current_schema()`.execute(
          db,
        );
  const needs = new Map(tables.map((table) => [table, new Set<string>()]));
  for (const { tbl, ref } of rows) if (tbl !== ref) needs.get(tbl)?.add(ref);
  const ordered: string[] = [];
  const visit = (table: string, path: Set<string>) => {
    if (ordered.includes(table) || path.has(table)) return;
    path.add(table);
    for (const ref of [...(needs.get(table) ?? [])].sort()) visit(ref, path);
    ordered.push(table);
  };
  for (const table of [...tables].sort()) visit(table, new Set());
  return ordered;
}

async function primaryKey(db: Executor, dialect: Dialect, table: string): Promise<string[]> {
  if (dialect === 'sqlite') {
    const { rows } = await sql<{ name: string; pk: number }>`
      select name, pk from pragma_table_info(${table}) where pk > 0 order by pk`.execute(db);
    return rows.map((row) => row.name);
  }
  const { rows } = await sql<{ name: string }>`
    select a.attname as name
    from pg_index i
    join pg_attribute a on a.attrelid = i.indrelid and a.attnum = any(i.indkey)
    where i.indrelid = ${table}::regclass and i.indisprimary
    order by array_position(i.indkey, a.attnum)`.execute(db);
  return rows.map((row) => row.name);
}

async function readSequences(db: Executor, dialect: Dialect): Promise<Record<string, number>> {
  if (dialect === 'sqlite') {
    const exists = await sql<{ n: number }>`
      select count(*) as n from sqlite_master where name = 'sqlite_sequence'`.execute(db);
    if (Number(exists.rows[0]?.n) === 0) return {};
    const { rows } = await sql<{ name: string; seq: number }>`
      select name, seq from sqlite_sequence`.execute(db);
    return Object.fromEntries(
      rows
        .filter((row) => !migrationTables.has(row.name))
        .map((row) => [row.name, Number(row.seq)]),
    );
  }
  const sequences: Record<string, number> = {};
  for (const { table, sequence } of await serialColumns(db)) {
    const { rows } = await sql<{ value: string | number | null }>`
      select pg_sequence_last_value(${sequence}::regclass) as value`.execute(db);
    const value = rows[0]?.value;
    if (value !== null && value !== undefined) sequences[table] = Number(value);
  }
  return sequences;
}

async function serialColumns(
  db: Executor,
): Promise<{ table: string; column: string; sequence: string }[]> {
  const { rows } = await sql<{ table: string; column: string; sequence: string }>`
    select table_name as "table", column_name as "column",
      pg_get_serial_sequence(quote_ident(table_name), column_name) as sequence
    from information_schema.columns
    where table_schema = current_schema() and column_default like 'nextval(%'`.execute(db);
  return rows.filter((row) => !migrationTables.has(row.table));
}

const pageSize = 2000;

async function* tableRows(db: Executor, table: string, key: string[]): AsyncGenerator<Row[]> {
  if (key.length === 0) {
    const { rows } = await sql<Row>`select * from ${sql.table(table)}`.execute(db);
    yield rows;
    return;
  }
  const keyRefs = sql.join(key.map((column) => sql.ref(column)));
  let after: unknown[] | null = null;
  for (;;) {
    const from: RawBuilder<unknown> = after
      ? sql`where (${keyRefs}) > (${sql.join(after)})`
      : sql``;
    const { rows } = await sql<Row>`
      select * from ${sql.table(table)} ${from} order by ${keyRefs} limit ${pageSize}`.execute(db);
    if (rows.length > 0) yield rows;
    if (rows.length < pageSize) return;
    const last = rows[rows.length - 1] as Row;
    after = key.map((column) => last[column]);
  }
}

async function appliedMigrations(db: Executor): Promise<string[]> {
  const known = (await db.introspection.getTables({ withInternalKyselyTables: true })).some(
    (table) => table.name === 'kysely_migration',
  );
  if (!known) return [];
  const { rows } = await sql<{ name: string }>`
    select name from kysely_migration order by name`.execute(db);
  return rows.map((row) => row.name);
}

/** One snapshot while the server writes: REPEATABLE READ, or SQLite's read transaction in WAL. */
export async function writeArchive(
  db: Db,
  write: (line: string) => Promise<void>,
): Promise<Record<string, number>> {
  let begin = db.kysely.transaction();
  if (db.dialect === 'postgres')
    begin = begin.setIsolationLevel('repeatable read').setAccessMode('read only');
  return begin.execute(async (trx) => {
    // The first read fixes the snapshot; everything below reads from it.
    const names = await appliedMigrations(trx);
    const tables = await insertOrder(trx, db.dialect, await tableNames(trx));
    const header: ArchiveHeader = {
      format: archiveFormat,
      version: archiveVersion,
      takenAt: new Date().toISOString(),
      dialect: db.dialect,
      migrations: names,
      sequences: await readSequences(trx, db.dialect),
    };
    await write(JSON.stringify(header));
    const counts: Record<string, number> = {};
    for (const table of tables) {
      const key = await primaryKey(trx, db.dialect, table);
      let columns: string[] | null = null;
      counts[table] = 0;
      for await (const rows of tableRows(trx, table, key)) {
        columns ??= Object.keys(rows[0] as Row);
        if (counts[table] === 0) {
          const line: TableLine = { table, columns };
          await write(JSON.stringify(line));
        }
        const names = columns;
        await write(rows.map((row) => JSON.stringify(names.map((c) => row[c]))).join('\n'));
        counts[table] += rows.length;
      }
    }
    const end: EndLine = { end: true, rows: counts };
    await write(JSON.stringify(end));
    return counts;
  });
}

export async function countRows(db: Executor): Promise<Record<string, number>> {
  const counts: Record<string, number> = {};
  for (const table of await tableNames(db)) {
    const { rows } = await sql<{ n: number | string }>`
      select count(*) as n from ${sql.table(table)}`.execute(db);
    counts[table] = Number(rows[0]?.n ?? 0);
  }
  return counts;
}

function parseLine(text: string, lineNumber: number): unknown {
  try {
    return JSON.parse(text);
  } catch {
    throw new ArchiveError(`line ${lineNumber} is not JSON: the file is damaged`);
  }
}

function checkHeader(value: unknown): ArchiveHeader {
  const header = value as Partial<ArchiveHeader> | null;
  if (header?.format !== archiveFormat)
    throw new ArchiveError(
      `not a Balance backup (its first line has no format "${archiveFormat}")`,
    );
  if (typeof header.version !== 'number' || header.version > archiveVersion)
    throw new ArchiveError(
      `the backup's format version ${String(header.version)} is newer than this Balance reads (${archiveVersion}); update Balance first`,
    );
  if (!Array.isArray(header.migrations) || header.migrations.length === 0)
    throw new ArchiveError('the backup names no migrations: the file is damaged');
  const unknown = header.migrations.filter((name) => !(name in migrations));
  if (unknown.length > 0)
    throw new ArchiveError(
      `the backup comes from a newer Balance (its schema has ${unknown.join(', ')}); update Balance first`,
    );
  return header as ArchiveHeader;
}

async function migrateTo(db: Kysely<Database>, name: string | null): Promise<void> {
  const migrator = new Migrator({
    db,
    provider: { getMigrations: () => Promise.resolve(migrations) },
  });
  const { error, results } =
    name === null ? await migrator.migrateToLatest() : await migrator.migrateTo(name);
  const failed = results?.find((result) => result.status === 'Error');
  if (error !== undefined || failed !== undefined)
    throw new Error(`migration failed${failed ? ` (${failed.migrationName})` : ''}`, {
      cause: error,
    });
}

/** Inside both databases' limits on bound parameters. */
const insertRowsFor = (columns: number) => Math.max(1, Math.min(500, Math.floor(30_000 / columns)));

async function insertRows(trx: Executor, table: string, columns: string[], rows: unknown[][]) {
  const columnList = sql.join(columns.map((column) => sql.ref(column)));
  const batch = insertRowsFor(columns.length);
  for (let start = 0; start < rows.length; start += batch) {
    const values = rows
      .slice(start, start + batch)
      .map((row) => sql`(${sql.join(row.map((value) => sql`${value}`))})`);
    await sql`insert into ${sql.table(table)} (${columnList}) values ${sql.join(values)}`.execute(
      trx,
    );
  }
}

async function resetSequences(
  trx: Executor,
  dialect: Dialect,
  saved: Record<string, number>,
): Promise<void> {
  if (dialect === 'sqlite') {
    // Inserting explicit ids has moved each counter to its table's highest id already.
    for (const [table, seq] of Object.entries(saved)) {
      const { rows } = await sql<{ seq: number }>`
        select seq from sqlite_sequence where name = ${table}`.execute(trx);
      if (rows.length === 0)
        await sql`insert into sqlite_sequence (name, seq) values (${table}, ${seq})`.execute(trx);
      else
        await sql`update sqlite_sequence set seq = max(seq, ${seq}) where name = ${table}`.execute(
          trx,
        );
    }
    return;
  }
  for (const { table, column, sequence } of await serialColumns(trx)) {
    const { rows } = await sql<{ top: number | string | null }>`
      select max(${sql.ref(column)}) as top from ${sql.table(table)}`.execute(trx);
    const top = Math.max(Number(rows[0]?.top ?? 0), saved[table] ?? 0);
    // is_called false for an empty table: the next id is still 1.
    await sql`select setval(${sequence}::regclass, ${Math.max(top, 1)}, ${top > 0})`.execute(trx);
  }
}

export interface RestoreSummary {
  header: ArchiveHeader;
  rows: Record<string, number>;
}

/** Newer migrations run after, so an older backup comes in as its data would have been upgraded. */
export async function restoreArchive(
  db: Db,
  lines: AsyncIterable<string>,
): Promise<RestoreSummary> {
  const iterator = lines[Symbol.asyncIterator]();
  let lineNumber = 0;
  const next = async (): Promise<unknown> => {
    for (;;) {
      const result: IteratorResult<string> = await iterator.next();
      if (result.done === true) return undefined;
      lineNumber += 1;
      if (result.value.trim() !== '') return parseLine(result.value, lineNumber);
    }
  };
  const header = checkHeader(await next());

  const present = await countRows(db.kysely);
  const filled = Object.entries(present).filter(([, n]) => n > 0);
  if (filled.length > 0)
    throw new ArchiveError(
      `the database is not empty (${filled.map(([table, n]) => `${table}: ${n} rows`).join(', ')}); restore only into a new, empty database`,
    );

  await migrateTo(db.kysely, header.migrations[header.migrations.length - 1] ?? null);

  const rows: Record<string, number> = {};
  await db.kysely.transaction().execute(async (trx) => {
    // A migration may have seeded rows; the backup holds those tables' real contents.
    const order = await insertOrder(trx, db.dialect, await tableNames(trx));
    for (const table of [...order].reverse())
      await sql`delete from ${sql.table(table)}`.execute(trx);
    const known = new Set(order);
    let table: TableLine | null = null;
    let pending: unknown[][] = [];
    const flush = async () => {
      if (table && pending.length > 0) await insertRows(trx, table.table, table.columns, pending);
      pending = [];
    };
    for (;;) {
      const value = await next();
      if (value === undefined)
        throw new ArchiveError('the backup ends before its last line: the file is cut short');
      if (Array.isArray(value)) {
        if (!table || value.length !== table.columns.length)
          throw new ArchiveError(`line ${lineNumber} does not fit its table: the file is damaged`);
        pending.push(value);
        rows[table.table] = (rows[table.table] ?? 0) + 1;
        if (pending.length >= 2000) await flush();
        continue;
      }
      await flush();
      const line = value as Partial<TableLine & EndLine>;
      if (line.end === true) {
        for (const [name, count] of Object.entries(line.rows ?? {}))
          if ((rows[name] ?? 0) !== count)
            throw new ArchiveError(
              `the backup says ${name} has ${count} rows but holds ${rows[name] ?? 0}: the file is damaged`,
            );
        break;
      }
      if (typeof line.table !== 'string' || !Array.isArray(line.columns))
        throw new ArchiveError(`line ${lineNumber} is not a row or a table: the file is damaged`);
      if (!known.has(line.table))
        throw new ArchiveError(`the backup has a table this database lacks: ${line.table}`);
      table = { table: line.table, columns: line.columns };
    }
    await resetSequences(trx, db.dialect, header.sequences);
  });

  await migrateTo(db.kysely, null);
  return { header, rows };
}
