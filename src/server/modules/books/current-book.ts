import type { FastifyRequest } from 'fastify';
import type { Actor } from '../../db/actor.ts';
import type { Executor } from '../../db/database.ts';
import { AppError } from '../../errors.ts';
import type { BookRole } from '../../../shared/schemas/books.ts';
import { findFirstBook, findMemberRole } from './books.queries.ts';
import { setSessionBook } from './books.repository.ts';

/** The book a request acts in, the member's role in it, and who is acting (decision 044). */
export interface CurrentBook {
  id: string;
  role: BookRole;
  actor: Actor;
}

declare module 'fastify' {
  interface FastifyRequest {
    book: CurrentBook | null;
  }
}

/**
 * The session's book if the person is still a member of it, else their first book (which the
 * session then keeps). Read on every request: a member removed is refused on their next one.
 */
export async function sessionBook(
  db: Executor,
  session: {
    tokenHash: string;
    bookId: string | null;
    userId: string;
    /** The role as the session's own query found it; undefined: not asked yet. */
    role?: BookRole | null;
  },
): Promise<CurrentBook | null> {
  const actor = { userId: session.userId, tokenId: null };
  if (session.bookId !== null) {
    const role =
      session.role === undefined
        ? await findMemberRole(db, session.bookId, session.userId)
        : session.role;
    if (role) return { id: session.bookId, role, actor };
  }
  const first = await findFirstBook(db, session.userId);
  if (!first) return null;
  await setSessionBook(db, session.tokenHash, first.bookId);
  return { id: first.bookId, role: first.role, actor };
}

function noBook(): AppError {
  return new AppError(403, 'forbidden', 'You are not a member of any book');
}

/** On a route behind requireUser: the book it acts in. */
export function currentBook(request: FastifyRequest): CurrentBook {
  if (!request.user) throw new Error('currentBook() called on a route without requireUser');
  if (!request.book) throw noBook();
  return request.book;
}
