import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRoutes } from '../../../../shared/api-routes.ts';
import { callApi } from '../../../lib/api-client.ts';
import { forgetAllButSession, queryKeys } from '../../../lib/query-keys.ts';

export function useLogout() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => callApi(apiRoutes.logout),
    onSuccess: () => {
      forgetAllButSession(queryClient);
      queryClient.setQueryData(queryKeys.session, { user: null });
    },
  });
}
