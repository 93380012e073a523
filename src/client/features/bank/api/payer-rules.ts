import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiRoutes } from '../../../../shared/api-routes.ts';
import { callApi } from '../../../lib/api-client.ts';
import { queryKeys } from '../../../lib/query-keys.ts';

// The payers the owner has confirmed on bank lines, and forgetting one (docs/api.md).

const payerRulesQuery = queryOptions({
  queryKey: queryKeys.bank.rules,
  queryFn: ({ signal }) => callApi(apiRoutes.bankRules, { signal }),
});

export const usePayerRules = () => useQuery(payerRulesQuery);

export function useForgetPayerRule() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => callApi(apiRoutes.forgetBankRule, { params: { id } }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.bank.rules }),
  });
}
