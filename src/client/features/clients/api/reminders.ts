import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiRoutes } from '../../../../shared/api-routes.ts';
import { callApi } from '../../../lib/api-client.ts';
import { clientsKey } from './queries.ts';

/**
 * Under the clients' key: the next reminders follow every ledger change and every live update.
 * The Settings page asks for the same preview under the same key (features/settings/api).
 */
const remindersKey = [...clientsKey, 'reminders'] as const;

/** The owner's plan: under the settings' key, which a `settings_changed` update refreshes. */
export const useReminderPlanState = () =>
  useQuery({
    queryKey: ['settings', 'mine', 'reminder-plan'],
    queryFn: ({ signal }) => callApi(apiRoutes.reminderPlan, { signal }),
  });

export const useReminderPreview = () =>
  useQuery({
    queryKey: [...remindersKey, 'preview'],
    queryFn: ({ signal }) => callApi(apiRoutes.reminderPreview, { signal }),
  });

const clientRemindersKey = (id: string) => [...remindersKey, 'client', id] as const;

export const useClientReminders = (id: string) =>
  useQuery({
    queryKey: clientRemindersKey(id),
    queryFn: ({ signal }) => callApi(apiRoutes.clientReminders, { params: { id }, signal }),
  });

export function useSetClientReminders(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (enabled: boolean) =>
      callApi(apiRoutes.setClientReminders, { params: { id }, body: { enabled } }),
    // The switch keeps the answer at once (not the state from before until the refetch comes);
    // the preview and the client's history change with it.
    onSuccess: (answer) => queryClient.setQueryData(clientRemindersKey(id), answer),
    onSettled: () => queryClient.invalidateQueries({ queryKey: clientsKey }),
  });
}
