import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiRoutes } from '../../../../shared/api-routes.ts';
import type { ReminderPlan } from '../../../../shared/schemas/reminders.ts';
import { callApi } from '../../../lib/api-client.ts';
import { settingsKey } from './settings.ts';

/** Under the settings' key: a plan saved in another tab arrives as `settings_changed`. */
const reminderPlanKey = [...settingsKey, 'reminder-plan'] as const;
/**
 * Under the clients' key (`['clients']`, features/clients/api/queries.ts): what the next
 * reminders are follows every ledger change, and every live update refreshes that key.
 */
const remindersKey = ['clients', 'reminders'] as const;

export const useReminderPlan = () =>
  useQuery(
    queryOptions({
      queryKey: reminderPlanKey,
      queryFn: ({ signal }) => callApi(apiRoutes.reminderPlan, { signal }),
    }),
  );

export const useReminderPreview = () =>
  useQuery({
    queryKey: [...remindersKey, 'preview'],
    queryFn: ({ signal }) => callApi(apiRoutes.reminderPreview, { signal }),
  });

export const useFailedReminders = () =>
  useQuery({
    queryKey: [...remindersKey, 'failed'],
    queryFn: ({ signal }) => callApi(apiRoutes.reminders, { query: { status: 'failed' }, signal }),
  });

export function useSaveReminderPlan() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: ReminderPlan) => callApi(apiRoutes.saveReminderPlan, { body }),
    onSuccess: async (plan) => {
      queryClient.setQueryData(reminderPlanKey, plan);
      await queryClient.invalidateQueries({ queryKey: remindersKey });
    },
  });
}
