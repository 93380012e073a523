import { useInfiniteQuery, useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRoutes } from '../../../../shared/api-routes.ts';
import { callApi } from '../../../lib/api-client.ts';
import { queryKeys } from '../../../lib/query-keys.ts';

/** The book's activity, newest first, in pages; one person's (their user id) or everyone's. */
export function useBookActivity(person: string | null) {
  return useInfiniteQuery({
    queryKey: queryKeys.books.activity(person),
    queryFn: ({ signal, pageParam }) =>
      callApi(apiRoutes.bookActivity, {
        query: { person: person ?? undefined, before: pageParam ?? undefined },
        signal,
      }),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.nextCursor,
  });
}

/** Closing the books up to a day, or opening them again (null); the change is in the activity. */
export function useSetLockDate() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (lockDate: string | null) => callApi(apiRoutes.setLockDate, { body: { lockDate } }),
    onSuccess: async (answer) => {
      queryClient.setQueryData(queryKeys.books.lockDate, answer);
      await queryClient.invalidateQueries({ queryKey: queryKeys.books.activityRoot });
    },
  });
}
