import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRoutes, type ApiCall } from '../../../../shared/api-routes.ts';
import { callApi } from '../../../lib/api-client.ts';
import { queryKeys, refreshOwnerData } from '../../../lib/query-keys.ts';

export type ConfirmBody = ApiCall<typeof apiRoutes.bankConfirm>['body'];

/** Records the chosen lines as payments, each once; the clients' figures change. */
export function useConfirmLines() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: ConfirmBody) => callApi(apiRoutes.bankConfirm, { body }),
    onSuccess: async () => {
      await Promise.all([
        refreshOwnerData(queryClient),
        queryClient.invalidateQueries({ queryKey: queryKeys.bank.layouts }),
      ]);
    },
  });
}
