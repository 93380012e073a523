import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiRoutes } from '../../../../shared/api-routes.ts';
import type { PublicSettings, SettingsUpdate } from '../../../../shared/schemas/settings.ts';
import { callApi } from '../../../lib/api-client.ts';
import { queryKeys, refreshOwnerData } from '../../../lib/query-keys.ts';

const publicSettingsQuery = queryOptions({
  queryKey: queryKeys.settings.public,
  queryFn: ({ signal }) => callApi(apiRoutes.publicSettings, { signal }),
});

const settingsQuery = queryOptions({
  queryKey: queryKeys.settings.mine,
  queryFn: ({ signal }) => callApi(apiRoutes.settings, { signal }),
});

/**
 * How often a signed-out tab asks again whether registration is open. Visitors have no live
 * stream, and a tab left open must follow the administrator's switch without a reload
 * (DECISIONS.md #22); the answer is a few bytes.
 */
const publicSettingsPollMs = 30_000;

/** The instance's public settings; `poll` keeps asking while the tab is open (signed out). */
export const usePublicSettings = ({ poll = false }: { poll?: boolean } = {}) =>
  useQuery({ ...publicSettingsQuery, refetchInterval: poll ? publicSettingsPollMs : false });
export const useSettings = () => useQuery(settingsQuery);

export function useSaveSettings() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: SettingsUpdate) => callApi(apiRoutes.saveSettings, { body }),
    onSuccess: async (settings) => {
      queryClient.setQueryData(queryKeys.settings.mine, settings);
      if (settings.allowRegistration !== null) {
        const allowRegistration = settings.allowRegistration;
        // The rest of the public settings (e-mailed resets) is the server's, unchanged here.
        queryClient.setQueryData<PublicSettings>(queryKeys.settings.public, (previous) =>
          previous ? { ...previous, allowRegistration } : previous,
        );
      }
      // The converted total on the dashboard depends on the rates.
      await refreshOwnerData(queryClient);
    },
  });
}
