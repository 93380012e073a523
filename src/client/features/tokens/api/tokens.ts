import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  accessTokenListSchema,
  createdAccessTokenSchema,
  type AccessTokenInput,
} from '../../../../shared/schemas/access-tokens.ts';
import { apiRequest } from '../../../lib/api-client.ts';

export const tokensKey = ['tokens'] as const;
const noContent = { parse: () => undefined };

export const tokensQuery = queryOptions({
  queryKey: tokensKey,
  queryFn: ({ signal }) =>
    apiRequest('GET', '/api/tokens', { schema: accessTokenListSchema, signal }),
});

export const useTokens = () => useQuery(tokensQuery);

export function useCreateToken() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: AccessTokenInput) =>
      apiRequest('POST', '/api/tokens', { body, schema: createdAccessTokenSchema }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: tokensKey }),
  });
}

export function useRevokeToken() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) =>
      apiRequest('DELETE', `/api/tokens/${encodeURIComponent(id)}`, { schema: noContent }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: tokensKey }),
  });
}
