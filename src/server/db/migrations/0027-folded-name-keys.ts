import { PostgresAdapter, sql, type Kysely } from 'kysely';
import { nameSortKey } from '../../../shared/names.ts';

// Frozen once landed. The list sorted names by a key only lower-cased ("Émilie" after "Wei Ming")
// and searched accents literally. Every client's key is now nameSortKey's: folded, and a Korean
// name family name first, as shown (decision 025). The keys are worked out here in code, a batch
// at a time along the primary key, and only the rows whose key changes are written.
//
// On PostgreSQL the key also compares by code point ("C"), as SQLite's does, whatever collation
// the database was made with: a page's keyset and the list's order are the same on both.

const batch = 1000;

interface ClientName {
  id: string;
  first_name: string;
  last_name: string;
  name_key: string;
}

export async function up(db: Kysely<unknown>): Promise<void> {
  if (db.getExecutor().adapter instanceof PostgresAdapter) {
    await sql`alter table clients alter column name_key type text collate "C"`.execute(db);
  }
  let after: string | null = null;
  for (;;) {
    const rows: ClientName[] = (
      await sql<ClientName>`
        select id, first_name, last_name, name_key from clients
        ${after === null ? sql`` : sql`where id > ${after}`}
        order by id limit ${batch}
      `.execute(db)
    ).rows;
    const changed = rows.flatMap((row) => {
      const key = nameSortKey({ firstName: row.first_name, lastName: row.last_name });
      return key === row.name_key ? [] : [sql`(${row.id}, ${key})`];
    });
    if (changed.length > 0) {
      await sql`
        with folded (id, name_key) as (values ${sql.join(changed)})
        update clients set name_key = folded.name_key from folded where clients.id = folded.id
      `.execute(db);
    }
    const last = rows.at(-1);
    if (rows.length < batch || last === undefined) return;
    after = last.id;
  }
}

export async function down(): Promise<void> {
  // The old keys are not kept; the folded ones sort and search as well for the code before.
}
