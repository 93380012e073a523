import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiRoutes } from '../../../../shared/api-routes.ts';
import type { ReminderPlan } from '../../../../shared/schemas/reminders.ts';
import { callApi } from '../../../lib/api-client.ts';
import { queryKeys } from '../../../lib/query-keys.ts';

/** The owner's plan: within the settings' key, so a plan saved in another tab refreshes it. */
const reminderPlanQuery = queryOptions({
  queryKey: queryKeys.settings.reminderPlan,
  queryFn: ({ signal }) => callApi(apiRoutes.reminderPlan, { signal }),
});

export const useReminderPlan = () => useQuery(reminderPlanQuery);

/** The plan's K, for "overdue 1 of 3". */
export const useReminderPlanOverdueMax = () =>
  useQuery({ ...reminderPlanQuery, select: (plan) => plan.overdueMax });

/** The next reminders the plan would send: they follow every ledger change. */
export const useReminderPreview = () =>
  useQuery({
    queryKey: queryKeys.reminders.preview,
    queryFn: ({ signal }) => callApi(apiRoutes.reminderPreview, { signal }),
  });

export const useFailedReminders = () =>
  useQuery({
    queryKey: queryKeys.reminders.failed,
    queryFn: ({ signal }) => callApi(apiRoutes.reminders, { query: { status: 'failed' }, signal }),
  });

export function useSaveReminderPlan() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: ReminderPlan) => callApi(apiRoutes.saveReminderPlan, { body }),
    onSuccess: async (plan) => {
      queryClient.setQueryData(queryKeys.settings.reminderPlan, plan);
      await queryClient.invalidateQueries({ queryKey: queryKeys.reminders.root });
    },
  });
}
