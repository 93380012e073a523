import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiRoutes } from '../../shared/api-routes.ts';
import { mayDo, type BookAccess } from '../../shared/book-access.ts';
import type { BookSummary } from '../../shared/schemas/books.ts';
import { callApi } from './api-client.ts';
import { queryKeys } from './query-keys.ts';

/** The session's answer: who is signed in, and the book they act in (every feature reads it). */
export const sessionQuery = queryOptions({
  queryKey: queryKeys.session,
  queryFn: ({ signal }) => callApi(apiRoutes.session, { signal }),
  staleTime: 5 * 60_000,
});

/**
 * The book the session acts in: undefined while the session is not known (or signed out),
 * null when the person belongs to no book; with every book of theirs, for the switcher.
 */
export function useCurrentBook(): { book: BookSummary | null | undefined; books: BookSummary[] } {
  const session = useQuery(sessionQuery);
  const data = session.data;
  return {
    book: data?.user ? (data.book ?? null) : undefined,
    books: data?.user ? (data.books ?? []) : [],
  };
}

/**
 * Whether the current member may do what a route asks (`can(apiRoutes.voidEntry.access)`), so a
 * screen hides what their role cannot do rather than offering it and failing. A route that asks
 * nothing of a member is always allowed; outside any book, nothing of a book is. Until the
 * session is known nothing is hidden: the screens wait for it anyway, and the server decides.
 */
export function useBookAccess(): (access: BookAccess | undefined) => boolean {
  const { book } = useCurrentBook();
  return (access) =>
    access === undefined || book === undefined || (book !== null && mayDo(book.role, access));
}

/** Whether the current book is kept by more than one person: then who did what is shown. */
export function useSeveralPeople(): boolean {
  const { book } = useCurrentBook();
  return (book?.members ?? 0) > 1;
}
