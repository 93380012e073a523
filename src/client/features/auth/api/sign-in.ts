import { useMutation, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod/mini';
import {
  sessionUserSchema,
  type JoinBody,
  type LoginBody,
} from '../../../../shared/schemas/auth.ts';
import { accountLanguageSchema } from '../../../../shared/schemas/language.ts';
import { apiRequest } from '../../../lib/api-client.ts';
import { sessionQueryKey } from './session.ts';

const userResponseSchema = z.object({
  user: sessionUserSchema,
  language: z.optional(accountLanguageSchema),
});

/** Login and join both end signed in; the session query then holds the new user. */
function useSignIn(path: '/api/auth/login' | '/api/auth/join') {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: LoginBody | JoinBody) =>
      apiRequest('POST', path, { body, schema: userResponseSchema }),
    onSuccess: ({ user, language }) => {
      // Whatever was cached belonged to whoever was signed in before.
      queryClient.removeQueries({ predicate: (query) => query.queryKey[0] !== sessionQueryKey[0] });
      queryClient.setQueryData(sessionQueryKey, { user, language });
    },
  });
}

export const useLogin = () => useSignIn('/api/auth/login');
export const useJoin = () => useSignIn('/api/auth/join');
