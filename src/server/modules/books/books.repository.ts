// The SQL that makes and removes books and their members (migration 0045, decision 044).
import type { Executor } from '../../db/database.ts';
import type { BookRole } from '../../../shared/schemas/books.ts';

/** A new account's own book: its id is the account's, so a solo owner's rows read as before. */
export async function insertBook(
  db: Executor,
  book: { id: string; ownerId: string; now: number },
): Promise<void> {
  await db.insertInto('books').values({ id: book.id, created_at: book.now }).execute();
  await insertMember(db, { bookId: book.id, userId: book.ownerId, role: 'owner', now: book.now });
}

export async function insertMember(
  db: Executor,
  member: { bookId: string; userId: string; role: BookRole; now: number },
): Promise<void> {
  await db
    .insertInto('book_members')
    .values({
      book_id: member.bookId,
      user_id: member.userId,
      role: member.role,
      created_at: member.now,
    })
    .execute();
}

export async function setSessionBook(
  db: Executor,
  tokenHash: string,
  bookId: string,
): Promise<void> {
  await db
    .updateTable('sessions')
    .set({ book_id: bookId })
    .where('token_hash', '=', tokenHash)
    .execute();
}

/** The books a person alone owns: deleting the person deletes them. */
export async function deleteBooks(db: Executor, bookIds: readonly string[]): Promise<void> {
  if (bookIds.length === 0) return;
  await db.deleteFrom('books').where('id', 'in', bookIds).execute();
}
