import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { apiRoutes } from '../../../../shared/api-routes.ts';
import type { Currency } from '../../../../shared/money.ts';
import { callApi } from '../../../lib/api-client.ts';
import { queryKeys } from '../../../lib/query-keys.ts';

const clientSearchSize = 8;

/** Clients of one currency whose name, e-mail or phone has the words typed. */
export function useClientSearch(q: string, currency: Currency, enabled: boolean) {
  return useQuery({
    queryKey: queryKeys.clients.search(currency, q),
    queryFn: ({ signal }) =>
      callApi(apiRoutes.clientList, {
        query: { q, currency, sort: 'name', limit: String(clientSearchSize) },
        signal,
      }),
    enabled,
    placeholderData: keepPreviousData,
  });
}
