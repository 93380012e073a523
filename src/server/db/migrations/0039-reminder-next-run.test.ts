import type { Kysely } from 'kysely';
import { Migrator } from 'kysely/migration';
import { afterEach, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../../../tests/db.ts';
import { plansToLookAt } from '../../modules/reminders/reminders.queries.ts';
import { createDb, type Db } from '../database.ts';
import { migrations } from './index.ts';

let database: TestDatabase | undefined;
let db: Db | undefined;

/** The plans as the code before this migration wrote them: each its owner's, not a book's. */
interface OldTables {
  reminder_plans: {
    owner_id: string;
    enabled: number;
    days_before: number;
    on_due: number;
    overdue_every_days: number;
    overdue_max: number;
    attach_pdf: number;
    time_zone: string;
    updated_at: number;
  };
}

afterEach(async () => {
  await db?.kysely.destroy();
  await database?.drop();
});

describe("the reminder sender's next-run migration", () => {
  it('has the sender read, at its first run, every plan that was on', async () => {
    database = await createTestDatabase();
    db = createDb(database.config);
    const migrator = new Migrator({
      db: db.kysely,
      provider: { getMigrations: () => Promise.resolve(migrations) },
    });
    expect((await migrator.migrateTo('0036-payer-rule-origin')).error).toBeUndefined();
    const kysely = db.kysely;
    const owners = ['on', 'off'];
    await kysely
      .insertInto('users')
      .values(
        owners.map((id) => ({
          id,
          email: `${id}@example.com`,
          email_key: `${id}@example.com`,
          password_hash: 'x',
          is_admin: 0,
          created_at: 0,
        })),
      )
      .execute();
    await (kysely as unknown as Kysely<OldTables>)
      .insertInto('reminder_plans')
      .values(
        owners.map((owner) => ({
          owner_id: owner,
          enabled: owner === 'on' ? 1 : 0,
          days_before: 3,
          on_due: 1,
          overdue_every_days: 7,
          overdue_max: 3,
          attach_pdf: 0,
          time_zone: 'Asia/Seoul',
          updated_at: 0,
        })),
      )
      .execute();

    // To the latest: the sender's query below reads the tables as they are now (each plan a book's).
    expect((await migrator.migrateToLatest()).error).toBeUndefined();

    const rows = await kysely
      .selectFrom('reminder_plans')
      .select(['book_id', 'next_run_at', 'book_changes'])
      .orderBy('book_id')
      .execute();
    expect(rows).toEqual([
      { book_id: 'off', next_run_at: 0, book_changes: 0 },
      { book_id: 'on', next_run_at: 0, book_changes: 0 },
    ]);
    const due = await plansToLookAt(kysely, 1);
    expect(
      due.map(({ bookId, plan, bookChanges }) => [bookId, plan.timeZone, bookChanges]),
    ).toEqual([['on', 'Asia/Seoul', 0]]);
  });
});
