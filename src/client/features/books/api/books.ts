import { useMutation, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { apiRoutes } from '../../../../shared/api-routes.ts';
import type { SessionResponse } from '../../../../shared/schemas/auth.ts';
import type { Books } from '../../../../shared/schemas/books.ts';
import { callApi } from '../../../lib/api-client.ts';
import { queryKeys } from '../../../lib/query-keys.ts';

/**
 * Another book is now the session's: everything kept belonged to the one before, so every query
 * but the session's starts over (those shown fetch again at once), and the session, which
 * carries the book's first run, is asked again.
 */
async function actInBook(queryClient: QueryClient, { current, books }: Books): Promise<void> {
  queryClient.setQueryData<SessionResponse>(queryKeys.session, (session) =>
    session?.user ? { ...session, book: current, books } : session,
  );
  await queryClient.resetQueries({
    predicate: (query) => query.queryKey[0] !== queryKeys.session[0],
  });
  await queryClient.invalidateQueries({ queryKey: queryKeys.session });
}

export function useSwitchBook() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (bookId: string) => callApi(apiRoutes.switchBook, { body: { bookId } }),
    onSuccess: (books) => actInBook(queryClient, books),
  });
}

export function useCreateBook() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (name: string) => callApi(apiRoutes.createBook, { body: { name } }),
    onSuccess: (books) => actInBook(queryClient, books),
  });
}
