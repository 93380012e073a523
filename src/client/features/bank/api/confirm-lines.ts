import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRoutes, type ApiCall } from '../../../../shared/api-routes.ts';
import { callApi } from '../../../lib/api-client.ts';
import { bankLayoutsKey } from './bank-layouts.ts';

export type ConfirmBody = ApiCall<typeof apiRoutes.bankConfirm>['body'];

/** Records the chosen lines as payments, each once; the clients' figures change. */
export function useConfirmLines() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: ConfirmBody) => callApi(apiRoutes.bankConfirm, { body }),
    onSuccess: async () => {
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: ['clients'] }),
        queryClient.invalidateQueries({ queryKey: bankLayoutsKey }),
      ]);
    },
  });
}
