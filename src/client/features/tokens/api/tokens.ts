import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type {
  AccessTokenList,
  CreatedAccessToken,
  AccessTokenInput,
} from '../../../../shared/schemas/access-tokens.ts';
import { apiRequest } from '../../../lib/api-client.ts';

export const tokensKey = ['tokens'] as const;

export const tokensQuery = queryOptions({
  queryKey: tokensKey,
  queryFn: ({ signal }) => apiRequest<AccessTokenList>('GET', '/api/tokens', { signal }),
});

export const useTokens = () => useQuery(tokensQuery);

export function useCreateToken() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: AccessTokenInput) =>
      apiRequest<CreatedAccessToken>('POST', '/api/tokens', { body }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: tokensKey }),
  });
}

export function useRevokeToken() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) =>
      apiRequest<undefined>('DELETE', `/api/tokens/${encodeURIComponent(id)}`),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: tokensKey }),
  });
}
