import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { oldDatabases } from '../../../../tests/old-database.ts';

const databaseAt = oldDatabases();

describe('the correction index migration', () => {
  it("finds an entry's corrections along an index of the entries that correct one", async () => {
    const { db, migrateTo } = await databaseAt('0046-closed-periods');
    await migrateTo('0047-correction-index');
    const kysely = db.kysely;
    if (db.dialect === 'sqlite') {
      const plan = await sql<{
        detail: string;
      }>`explain query plan select max(id) from entries where corrects = ${1}`.execute(kysely);
      expect(plan.rows.map((row) => row.detail).join('\n')).toContain('entries_corrects');
    } else {
      const indexes = await sql<{
        definition: string;
      }>`select indexdef as definition from pg_indexes where indexname = 'entries_corrects'`.execute(
        kysely,
      );
      expect(indexes.rows).toHaveLength(1);
      expect(indexes.rows[0]?.definition).toMatch(/\(corrects\) WHERE \(corrects IS NOT NULL\)/);
    }
  });
});
