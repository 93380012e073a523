import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { oldDatabases } from '../../../../tests/old-database.ts';

const databaseAt = oldDatabases();

describe('the closed periods migration', () => {
  it('leaves every book open and every entry standing alone, and lets a correction name its entry', async () => {
    const { db, migrateTo } = await databaseAt('0045-books');
    const kysely = db.kysely;
    await kysely.insertInto('books').values({ id: 'owner', created_at: 0 }).execute();
    await kysely
      .insertInto('clients')
      .values({
        id: 'c1',
        book_id: 'owner',
        first_name: 'Min',
        last_name: 'Kim',
        name_key: 'kim min',
        email: 'min@example.com',
        phone: '',
        balance: 500,
        currency: 'KRW',
        version: 1,
        created_at: 0,
        updated_at: 0,
      })
      .execute();
    const entry = {
      book_id: 'owner',
      client_id: 'c1',
      kind: 'charge' as const,
      amount: 500,
      currency: 'KRW' as const,
      occurred_on: '2026-03-01',
      due_on: null,
      note: '',
      void_of: null,
      created_by: 'owner',
      created_at: 0,
    };
    const { id } = await kysely
      .insertInto('entries')
      .values(entry)
      .returning('id')
      .executeTakeFirstOrThrow();

    await migrateTo('0046-closed-periods');

    expect(await kysely.selectFrom('books').select(['id', 'lock_date']).execute()).toEqual([
      { id: 'owner', lock_date: null },
    ]);
    expect(await kysely.selectFrom('entries').select(['id', 'corrects']).execute()).toEqual([
      { id, corrects: null },
    ]);
    await kysely
      .insertInto('entries')
      .values({ ...entry, kind: 'credit', amount: -500, occurred_on: '2026-04-02', corrects: id })
      .execute();
    const corrections = await kysely
      .selectFrom('entries')
      .select('id')
      .where('corrects', '=', id)
      .execute();
    expect(corrections).toHaveLength(1);
    // The activity's index of one person's acts.
    const indexes =
      db.dialect === 'sqlite'
        ? await sql<{
            name: string;
          }>`select name from sqlite_master where type = 'index' and name = 'events_book_actor'`.execute(
            kysely,
          )
        : await sql<{
            name: string;
          }>`select indexname as name from pg_indexes where indexname = 'events_book_actor'`.execute(
            kysely,
          );
    expect(indexes.rows).toEqual([{ name: 'events_book_actor' }]);
  });
});
