import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { JoinBody, LoginBody, UserResponse } from '../../../../shared/schemas/auth.ts';
import { apiRequest } from '../../../lib/api-client.ts';
import { sessionQueryKey } from './session.ts';

/** Login and join both end signed in; the session query then holds the new user. */
function useSignIn(path: '/api/auth/login' | '/api/auth/join') {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: LoginBody | JoinBody) => apiRequest<UserResponse>('POST', path, { body }),
    onSuccess: ({ user, language }) => {
      // Whatever was cached belonged to whoever was signed in before.
      queryClient.removeQueries({ predicate: (query) => query.queryKey[0] !== sessionQueryKey[0] });
      queryClient.setQueryData(sessionQueryKey, { user, language });
    },
  });
}

export const useLogin = () => useSignIn('/api/auth/login');
export const useJoin = () => useSignIn('/api/auth/join');
