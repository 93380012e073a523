import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiRoutes } from '../../../../shared/api-routes.ts';
import type { AccessTokenInput } from '../../../../shared/schemas/access-tokens.ts';
import { callApi } from '../../../lib/api-client.ts';
import { queryKeys } from '../../../lib/query-keys.ts';

const tokensQuery = queryOptions({
  queryKey: queryKeys.tokens,
  queryFn: ({ signal }) => callApi(apiRoutes.tokens, { signal }),
});

export const useTokens = () => useQuery(tokensQuery);

export function useCreateToken() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: AccessTokenInput) => callApi(apiRoutes.createToken, { body }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.tokens }),
  });
}

export function useRevokeToken() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => callApi(apiRoutes.revokeToken, { params: { id } }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.tokens }),
  });
}
