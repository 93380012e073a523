import { keepPreviousData, queryOptions, useQueries, useQuery } from '@tanstack/react-query';
import { apiRoutes } from '../../../../shared/api-routes.ts';
import type { Currency } from '../../../../shared/money.ts';
import { callApi } from '../../../lib/api-client.ts';

/** One client, as the client pages read it (the same cache entry). */
const clientQuery = (id: string) =>
  queryOptions({
    queryKey: ['clients', 'one', id] as const,
    queryFn: ({ signal }) => callApi(apiRoutes.client, { params: { id }, signal }),
    staleTime: 60_000,
  });

/** The clients suggested for a statement's lines, to name them. */
export function useClientsById(ids: readonly string[]) {
  return useQueries({
    queries: ids.map((id) => clientQuery(id)),
    combine: (results) =>
      new Map(results.flatMap((result) => (result.data ? [[result.data.id, result.data]] : []))),
  });
}

export const clientSearchSize = 8;

/** Clients of one currency whose name, e-mail or phone has the words typed. */
export function useClientSearch(q: string, currency: Currency, enabled: boolean) {
  return useQuery({
    queryKey: ['clients', 'list', 'bank-search', currency, q] as const,
    queryFn: ({ signal }) =>
      callApi(apiRoutes.clientList, {
        query: { q, currency, sort: 'name', limit: String(clientSearchSize) },
        signal,
      }),
    enabled,
    placeholderData: keepPreviousData,
  });
}
