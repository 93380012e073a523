import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  publicSettingsSchema,
  settingsSchema,
  type SettingsUpdate,
} from '../../../../shared/schemas/settings.ts';
import { apiRequest } from '../../../lib/api-client.ts';

export const publicSettingsKey = ['settings', 'public'] as const;
export const settingsKey = ['settings', 'mine'] as const;

export const publicSettingsQuery = queryOptions({
  queryKey: publicSettingsKey,
  queryFn: ({ signal }) =>
    apiRequest('GET', '/api/settings/public', { schema: publicSettingsSchema, signal }),
});

export const settingsQuery = queryOptions({
  queryKey: settingsKey,
  queryFn: ({ signal }) => apiRequest('GET', '/api/settings', { schema: settingsSchema, signal }),
});

export const usePublicSettings = () => useQuery(publicSettingsQuery);
export const useSettings = () => useQuery(settingsQuery);

export function useSaveSettings() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: SettingsUpdate) =>
      apiRequest('PUT', '/api/settings', { body, schema: settingsSchema }),
    onSuccess: async (settings) => {
      queryClient.setQueryData(settingsKey, settings);
      if (settings.allowRegistration !== null) {
        queryClient.setQueryData(publicSettingsKey, {
          allowRegistration: settings.allowRegistration,
        });
      }
      // The converted total on the dashboard depends on the rates.
      await queryClient.invalidateQueries({ queryKey: ['clients'] });
    },
  });
}
