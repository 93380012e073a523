import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiRoutes } from '../../../../shared/api-routes.ts';
import { callApi } from '../../../lib/api-client.ts';
import { queryKeys, refreshOwnerData } from '../../../lib/query-keys.ts';

export const useClientReminders = (clientId: string) =>
  useQuery({
    queryKey: queryKeys.reminders.ofClient(clientId),
    queryFn: ({ signal }) =>
      callApi(apiRoutes.clientReminders, { params: { id: clientId }, signal }),
  });

export function useSetClientReminders(clientId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (enabled: boolean) =>
      callApi(apiRoutes.setClientReminders, { params: { id: clientId }, body: { enabled } }),
    // The switch keeps the answer at once (not the state from before until the refetch comes);
    // the preview and the client's history change with it.
    onSuccess: (answer) => queryClient.setQueryData(queryKeys.reminders.ofClient(clientId), answer),
    onSettled: () => refreshOwnerData(queryClient),
  });
}
