import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiRoutes } from '../../../../shared/api-routes.ts';
import type { DueReminders, MarkSentBody } from '../../../../shared/schemas/reminders.ts';
import { callApi } from '../../../lib/api-client.ts';

/**
 * Under the clients' key (`['clients']`, features/clients/api/queries.ts), as the overview: a
 * payment or a reminder marked in another tab changes what is due today.
 */
const dueTodayKey = ['clients', 'reminders', 'due-today'] as const;

export const useRemindersDueToday = () =>
  useQuery({
    queryKey: dueTodayKey,
    queryFn: ({ signal }) => callApi(apiRoutes.remindersDueToday, { signal }),
  });

/** The plan's K, for "overdue 1 of 3"; the same query the Settings page asks. */
export const useReminderPlanOverdueMax = () =>
  useQuery({
    queryKey: ['settings', 'mine', 'reminder-plan'],
    queryFn: ({ signal }) => callApi(apiRoutes.reminderPlan, { signal }),
    select: (plan) => plan.overdueMax,
  });

export function useMarkReminderSent() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ clientId, body }: { clientId: string; body: MarkSentBody }) =>
      callApi(apiRoutes.markReminderSent, { params: { id: clientId }, body }),
    onSuccess: async (_answer, { clientId }) => {
      queryClient.setQueryData<DueReminders>(dueTodayKey, (due) =>
        due
          ? { ...due, reminders: due.reminders.filter((entry) => entry.clientId !== clientId) }
          : due,
      );
      // The client's history and the next reminders change with it.
      await queryClient.invalidateQueries({ queryKey: ['clients'] });
    },
  });
}
