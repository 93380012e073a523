import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiRoutes } from '../../../../shared/api-routes.ts';
import { callApi } from '../../../lib/api-client.ts';
import { forgetAllButSession, queryKeys } from '../../../lib/query-keys.ts';

export function useInvitation(token: string) {
  return useQuery({
    queryKey: queryKeys.books.invitation(token),
    queryFn: ({ signal }) => callApi(apiRoutes.invitation, { params: { token }, signal }),
    staleTime: Infinity,
  });
}

/** Accepted, the person acts in the invitation's book: what was kept was of another. */
export function useAcceptInvitation(token: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (password: string | undefined) =>
      callApi(apiRoutes.acceptInvitation, {
        params: { token },
        body: password === undefined ? {} : { password },
      }),
    onSuccess: ({ user, language, firstRun, book, books }) => {
      forgetAllButSession(queryClient);
      queryClient.setQueryData(queryKeys.session, { user, language, firstRun, book, books });
    },
  });
}
