import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiRoutes } from '../../../../shared/api-routes.ts';
import type { RevokeClientLinksBody } from '../../../../shared/schemas/client-links.ts';
import type { Locale } from '../../../../shared/locales.ts';
import { useI18n } from '../../../i18n/use-i18n.ts';
import { callApi } from '../../../lib/api-client.ts';
import { queryKeys } from '../../../lib/query-keys.ts';

/** The recent client links and who made each; devices are named in the shown language. */
const accountClientLinksQuery = (locale: Locale) =>
  queryOptions({
    queryKey: queryKeys.account.clientLinksIn(locale),
    queryFn: ({ signal }) => callApi(apiRoutes.accountClientLinks, { signal }),
  });

export function useAccountClientLinks() {
  const { locale } = useI18n();
  return useQuery(accountClientLinksQuery(locale));
}

export function useRevokeClientLinks() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: RevokeClientLinksBody) =>
      callApi(apiRoutes.revokeAccountClientLinks, { body }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.account.clientLinks }),
  });
}
