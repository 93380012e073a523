import { sql, type Kysely } from 'kysely';
import type { Database } from '../src/server/db/database.ts';

/**
 * Makes the database refuse to insert a client with `email` (a trigger, on either dialect), so
 * that a write fails part-way through; answers what takes the trigger away again.
 */
export async function refuseClientInsert(
  db: Kysely<Database>,
  dialect: 'sqlite' | 'postgres',
  email: string,
): Promise<() => Promise<void>> {
  if (dialect === 'sqlite') {
    await sql`create trigger refuse_late before insert on clients
      when new.email = ${sql.lit(email)}
      begin select raise(abort, 'refused late'); end`.execute(db);
    return async () => {
      await sql`drop trigger refuse_late`.execute(db);
    };
  }
  await sql`create function refuse_late() returns trigger language plpgsql as $$
    begin raise exception 'refused late'; end $$`.execute(db);
  await sql`create trigger refuse_late before insert on clients for each row
    when (new.email = ${sql.lit(email)}) execute function refuse_late()`.execute(db);
  return async () => {
    await sql`drop trigger refuse_late on clients`.execute(db);
    await sql`drop function refuse_late`.execute(db);
  };
}
