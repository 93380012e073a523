import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRoutes } from '../../../../shared/api-routes.ts';
import type { JoinBody, LoginBody, UserResponse } from '../../../../shared/schemas/auth.ts';
import { callApi } from '../../../lib/api-client.ts';
import { forgetAllButSession, queryKeys } from '../../../lib/query-keys.ts';

/** Login and join both end signed in; the session query then holds the new user. */
function useSignIn<Body>(signIn: (body: Body) => Promise<UserResponse>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: signIn,
    onSuccess: ({ user, language, firstRun, book, books }) => {
      // Whatever was cached belonged to whoever was signed in before.
      forgetAllButSession(queryClient);
      queryClient.setQueryData(queryKeys.session, { user, language, firstRun, book, books });
    },
  });
}

export const useLogin = () => useSignIn((body: LoginBody) => callApi(apiRoutes.login, { body }));
export const useJoin = () => useSignIn((body: JoinBody) => callApi(apiRoutes.join, { body }));
