import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRoutes } from '../../../../shared/api-routes.ts';
import { callApi } from '../../../lib/api-client.ts';
import { refreshOwnerData } from '../../../lib/query-keys.ts';

/** Voids every payment of a confirmed import. */
export function useUndoBatch() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (batchId: string) => callApi(apiRoutes.bankUndo, { params: { id: batchId } }),
    onSuccess: async () => {
      await refreshOwnerData(queryClient);
    },
  });
}
