import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiRoutes } from '../../../../shared/api-routes.ts';
import type { DueReminders, MarkSentBody } from '../../../../shared/schemas/reminders.ts';
import { callApi } from '../../../lib/api-client.ts';
import { queryKeys, refreshOwnerData } from '../../../lib/query-keys.ts';

/** What is due today: a payment or a reminder marked in another tab changes it. */
export const useRemindersDueToday = () =>
  useQuery({
    queryKey: queryKeys.reminders.dueToday,
    queryFn: ({ signal }) => callApi(apiRoutes.remindersDueToday, { signal }),
  });

export function useMarkReminderSent() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ clientId, body }: { clientId: string; body: MarkSentBody }) =>
      callApi(apiRoutes.markReminderSent, { params: { id: clientId }, body }),
    onSuccess: async (_answer, { clientId }) => {
      queryClient.setQueryData<DueReminders>(queryKeys.reminders.dueToday, (due) =>
        due
          ? { ...due, reminders: due.reminders.filter((entry) => entry.clientId !== clientId) }
          : due,
      );
      // The client's history and the next reminders change with it.
      await refreshOwnerData(queryClient);
    },
  });
}
