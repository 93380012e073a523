// What is read of books and their members: which book a request acts in, and as what.
import type { Expression } from 'kysely';
import type { Executor } from '../../db/database.ts';
import type { BookRole, Books } from '../../../shared/schemas/books.ts';

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

/**
 * The books a person keeps, with the role and the number of members of each; named by the
 * business (else the first owner's e-mail), as the switcher shows them.
 */
/** The e-mail of a book's first owner: a book's name where its business has none. */
function firstOwnerEmail(db: Executor, bookId: Expression<string>) {
  return db
    .selectFrom('book_members as owner')
    .innerJoin('users', 'users.id', 'owner.user_id')
    .select('users.email')
    .where('owner.book_id', '=', bookId)
    .where('owner.role', '=', 'owner')
    .orderBy('owner.created_at')
    .orderBy('owner.user_id')
    .limit(1);
}

/** A book's name as people see it: the business's name, else its first owner's e-mail. */
const bookName = (row: { business_name: string | null; owner_email: string | null }) =>
  row.business_name?.trim() || row.owner_email || '';

export async function listBooksOf(
  db: Executor,
  userId: string,
): Promise<{ id: string; name: string; role: BookRole; members: number }[]> {
  const rows = await db
    .selectFrom('book_members as mine')
    .leftJoin('book_settings', 'book_settings.book_id', 'mine.book_id')
    .select((eb) => [
      'mine.book_id as id',
      'mine.role',
      'book_settings.business_name',
      eb
        .selectFrom('book_members as other')
        .select((inner) => inner.fn.countAll<number | string>().as('count'))
        .whereRef('other.book_id', '=', 'mine.book_id')
        .as('members'),
      firstOwnerEmail(db, eb.ref('mine.book_id')).as('owner_email'),
    ])
    .where('mine.user_id', '=', userId)
    .orderBy('mine.created_at')
    .orderBy('mine.book_id')
    .execute();
  return rows.map((row) => ({
    id: row.id,
    role: row.role,
    name: bookName(row),
    members: Number(row.members ?? 0),
  }));
}

export async function listMembers(db: Executor, bookId: string) {
  const rows = await db
    .selectFrom('book_members')
    .innerJoin('users', 'users.id', 'book_members.user_id')
    .select(['book_members.user_id', 'book_members.role', 'book_members.created_at', 'users.email'])
    .where('book_members.book_id', '=', bookId)
    .orderBy('book_members.created_at')
    .orderBy('book_members.user_id')
    .execute();
  const assigned = await db
    .selectFrom('collector_clients')
    .select(['user_id', 'client_id'])
    .where('book_id', '=', bookId)
    .orderBy('client_id')
    .execute();
  return rows.map((row) => ({
    userId: row.user_id,
    email: row.email,
    role: row.role,
    createdAt: row.created_at,
    clientIds: assigned
      .filter((pair) => pair.user_id === row.user_id)
      .map((pair) => pair.client_id),
  }));
}

export async function countOwners(db: Executor, bookId: string): Promise<number> {
  const row = await db
    .selectFrom('book_members')
    .select((eb) => eb.fn.countAll<number | string>().as('count'))
    .where('book_id', '=', bookId)
    .where('role', '=', 'owner')
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

/** The last 100 invitations of the book, newest first. */
export async function listInvitations(db: Executor, bookId: string) {
  return db
    .selectFrom('book_invitations')
    .selectAll()
    .where('book_id', '=', bookId)
    .orderBy('created_at', 'desc')
    .orderBy('id')
    .limit(100)
    .execute();
}

export async function findInvitationByHash(db: Executor, tokenHash: string) {
  return db
    .selectFrom('book_invitations')
    .leftJoin('users as inviter', 'inviter.id', 'book_invitations.invited_by')
    .selectAll('book_invitations')
    .select('inviter.email as invited_by_email')
    .where('book_invitations.token_hash', '=', tokenHash)
    .executeTakeFirst();
}

/** Of these ids, the clients that are the book's. */
export async function clientsOfBook(
  db: Executor,
  bookId: string,
  clientIds: readonly string[],
): Promise<string[]> {
  if (clientIds.length === 0) return [];
  const rows = await db
    .selectFrom('clients')
    .select('id')
    .where('book_id', '=', bookId)
    .where('id', 'in', clientIds)
    .execute();
  return rows.map((row) => row.id);
}

/** The business's name, else its first owner's e-mail: how people tell books apart. */
export async function findBookName(db: Executor, bookId: string): Promise<string> {
  const row = await db
    .selectFrom('books')
    .leftJoin('book_settings', 'book_settings.book_id', 'books.id')
    .select((eb) => [
      'book_settings.business_name',
      firstOwnerEmail(db, eb.ref('books.id')).as('owner_email'),
    ])
    .where('books.id', '=', bookId)
    .executeTakeFirst();
  return row ? bookName(row) : '';
}

/** The person's books, and which one is current. */
export async function booksOf(
  db: Executor,
  userId: string,
  currentId: string | null,
): Promise<Books> {
  const books = await listBooksOf(db, userId);
  return { current: books.find((book) => book.id === currentId) ?? null, books };
}

/** The book's first owner still able to sign in: who its reminders' replies go to. */
export async function findBookOwner(
  db: Executor,
  bookId: string,
): Promise<{ id: string; email: string } | undefined> {
  return db
    .selectFrom('book_members')
    .innerJoin('users', 'users.id', 'book_members.user_id')
    .select(['users.id', 'users.email'])
    .where('book_members.book_id', '=', bookId)
    .where('book_members.role', '=', 'owner')
    .where('users.disabled_at', 'is', null)
    .orderBy('book_members.created_at')
    .orderBy('users.id')
    .limit(1)
    .executeTakeFirst();
}
