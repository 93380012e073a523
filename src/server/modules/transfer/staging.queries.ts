// What the import reads of its staging accounts (staging.repository.ts, decision 042).
import type { Executor } from '../../db/database.ts';

/** Whether `stagingId` is a staging account of `bookId` (null: of anyone) that is still there. */
export async function isStagingOf(
  db: Executor,
  bookId: string | null,
  stagingId: string,
): Promise<boolean> {
  let query = db.selectFrom('staged_imports').select('id').where('id', '=', stagingId);
  if (bookId !== null) query = query.where('book_id', '=', bookId);
  const row = await query.executeTakeFirst();
  return row !== undefined;
}

/** Staging accounts started before `startedBefore`: a crash or a lost request left them. */
export async function abandonedStagings(db: Executor, startedBefore: number) {
  return db
    .selectFrom('staged_imports')
    .select(['id', 'book_id as bookId'])
    .where('started_at', '<', startedBefore)
    .execute();
}
