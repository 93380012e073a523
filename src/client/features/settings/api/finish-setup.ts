import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRoutes } from '../../../../shared/api-routes.ts';
import type { Setup } from '../../../../shared/schemas/settings.ts';
import { callApi } from '../../../lib/api-client.ts';
import { queryKeys } from '../../../lib/query-keys.ts';

/** Finishes the first-run setup, done or skipped; answers where the owner now stands. */
export function useFinishSetup() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (setup: Setup) => callApi(apiRoutes.finishSetup, { body: setup }),
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: queryKeys.settings.mine });
    },
  });
}
