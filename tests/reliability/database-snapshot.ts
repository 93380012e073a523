import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { isDerivedTable } from '../../src/server/db/archive.ts';

/** The tables the matrix and fuzz tests promise to leave untouched; the snapshot holds them all. */
const dataTables = [
  'users',
  'sessions',
  'clients',
  'entries',
  'events',
  'book_settings',
  'exchange_rates',
  'instance_settings',
] as const;

export type DatabaseSnapshot = Record<string, string[]>;

/**
 * Every row of every table of the app (found by introspection, so a table added later is
 * covered too), each row as JSON, sorted: equal snapshots mean an unchanged database.
 */
export async function snapshotDatabase(
  app: FastifyInstance,
  /** Columns to leave out, by table; ['*'] leaves the whole table out. */
  options: { ignore?: Record<string, string[]> } = {},
): Promise<DatabaseSnapshot> {
  const db = app.db.kysely;
  // The search index is made from `clients` by triggers: comparing the clients compares it.
  const tables = (await db.introspection.getTables())
    .map((table) => table.name)
    .filter((name) => !isDerivedTable(name))
    .sort();
  for (const name of dataTables) {
    if (!tables.includes(name)) throw new Error(`table ${name} is missing from the database`);
  }
  const snapshot: DatabaseSnapshot = {};
  for (const name of tables) {
    const ignored = options.ignore?.[name] ?? [];
    if (ignored.includes('*')) continue;
    const { rows } = await sql<Record<string, unknown>>`select * from ${sql.table(name)}`.execute(
      db,
    );
    snapshot[name] = rows
      .map((row) => {
        const kept = Object.entries(row).filter(([column]) => !ignored.includes(column));
        return JSON.stringify(Object.fromEntries(kept.sort(([a], [b]) => a.localeCompare(b))));
      })
      .sort();
  }
  return snapshot;
}
