// What is read of books and their members: which book a request acts in, and as what.
import type { Executor } from '../../db/database.ts';
import type { BookRole } from '../../../shared/schemas/books.ts';

export async function findMemberRole(
  db: Executor,
  bookId: string,
  userId: string,
): Promise<BookRole | null> {
  const row = await db
    .selectFrom('book_members')
    .select('role')
    .where('book_id', '=', bookId)
    .where('user_id', '=', userId)
    .executeTakeFirst();
  return row?.role ?? null;
}

/** The book a session opens in when it has none (or lost it): the person's own first. */
export async function findFirstBook(
  db: Executor,
  userId: string,
): Promise<{ bookId: string; role: BookRole } | null> {
  const row = await db
    .selectFrom('book_members')
    .select(['book_id', 'role'])
    .where('user_id', '=', userId)
    .orderBy((eb) => eb.case().when('role', '=', 'owner').then(0).else(1).end())
    .orderBy('created_at')
    .orderBy('book_id')
    .executeTakeFirst();
  return row ? { bookId: row.book_id, role: row.role } : null;
}

/** The books a person alone owns. */
export async function findBooksOwnedAlone(db: Executor, userId: string): Promise<string[]> {
  const rows = await db
    .selectFrom('book_members as mine')
    .select('mine.book_id')
    .where('mine.user_id', '=', userId)
    .where('mine.role', '=', 'owner')
    .where((eb) =>
      eb.not(
        eb.exists(
          eb
            .selectFrom('book_members as other')
            .select('other.user_id')
            .whereRef('other.book_id', '=', 'mine.book_id')
            .where('other.role', '=', 'owner')
            .whereRef('other.user_id', '!=', 'mine.user_id'),
        ),
      ),
    )
    .execute();
  return rows.map((row) => row.book_id);
}

export async function isCollectorsClient(
  db: Executor,
  bookId: string,
  userId: string,
  clientId: string,
): Promise<boolean> {
  const row = await db
    .selectFrom('collector_clients')
    .select('client_id')
    .where('book_id', '=', bookId)
    .where('user_id', '=', userId)
    .where('client_id', '=', clientId)
    .executeTakeFirst();
  return row !== undefined;
}

export async function collectorsClients(
  db: Executor,
  bookId: string,
  userId: string,
): Promise<string[]> {
  const rows = await db
    .selectFrom('collector_clients')
    .select('client_id')
    .where('book_id', '=', bookId)
    .where('user_id', '=', userId)
    .execute();
  return rows.map((row) => row.client_id);
}
