// Books made, chosen and removed outside the write path: a new book has no data yet to announce,
// the session's choice is the person's, and a removal is the write path's `removeBooks` (which
// hands its transaction here).
import type { Executor } from '../../db/database.ts';
import { deleteBooks, insertBook, setSessionBook } from './books.repository.ts';

/** A new book with its first owner; named as its business when a name is given. */
export async function createBook(
  db: Executor,
  book: { id: string; ownerId: string; now: number; name?: string },
): Promise<void> {
  await insertBook(db, book);
  if (book.name === undefined) return;
  await db
    .insertInto('book_settings')
    .values({
      book_id: book.id,
      disable_balance_on_add: 0,
      disable_balance_on_edit: 0,
      business_name: book.name,
      updated_at: book.now,
    })
    .execute();
}

export async function chooseBook(db: Executor, tokenHash: string, bookId: string): Promise<void> {
  await setSessionBook(db, tokenHash, bookId);
}

export async function removeBooks(db: Executor, bookIds: readonly string[]): Promise<void> {
  await deleteBooks(db, bookIds);
}
