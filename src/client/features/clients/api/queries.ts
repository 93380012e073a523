import {
  infiniteQueryOptions,
  queryOptions,
  useInfiniteQuery,
  useQuery,
} from '@tanstack/react-query';
import { apiRoutes } from '../../../../shared/api-routes.ts';
import type { ClientListQuery } from '../../../../shared/schemas/clients.ts';
import { callApi } from '../../../lib/api-client.ts';

export const clientsKey = ['clients'] as const;
export const clientKey = (id: string) => ['clients', 'one', id] as const;
const historyKey = (id: string) => ['clients', 'history', id] as const;
const entriesKey = (id: string) => ['clients', 'entries', id] as const;

export type ClientListParams = Omit<ClientListQuery, 'cursor' | 'limit'>;

const clientListQuery = (params: ClientListParams) =>
  infiniteQueryOptions({
    queryKey: [...clientsKey, 'list', params] as const,
    queryFn: ({ signal, pageParam }) =>
      callApi(apiRoutes.clientList, {
        query: { ...params, cursor: pageParam ?? undefined },
        signal,
      }),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.nextCursor,
  });

export const clientQuery = (id: string) =>
  queryOptions({
    queryKey: clientKey(id),
    queryFn: ({ signal }) => callApi(apiRoutes.client, { params: { id }, signal }),
  });

const historyQuery = (id: string) =>
  queryOptions({
    queryKey: historyKey(id),
    queryFn: ({ signal }) => callApi(apiRoutes.clientHistory, { params: { id }, signal }),
  });

/** The client's ledger in pages, from the newest back: each page is oldest first. */
const entriesQuery = (id: string) =>
  infiniteQueryOptions({
    queryKey: entriesKey(id),
    queryFn: ({ signal, pageParam }) =>
      callApi(apiRoutes.clientEntries, {
        params: { id },
        query: { cursor: pageParam ?? undefined },
        signal,
      }),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.nextCursor,
  });

/** The client's opening balances (few: one, and one more for each change of currency). */
const openingsQuery = (id: string) =>
  queryOptions({
    queryKey: [...entriesKey(id), 'openings'] as const,
    queryFn: ({ signal }) =>
      callApi(apiRoutes.clientEntries, {
        params: { id },
        query: { kind: 'opening', limit: '500' },
        signal,
      }),
  });

/** Under the clients key, so every change the live stream reports refreshes it too. */
const ageingQuery = queryOptions({
  queryKey: [...clientsKey, 'ageing'] as const,
  queryFn: ({ signal }) => callApi(apiRoutes.ageing, { signal }),
});

export const useAgeing = () => useQuery(ageingQuery);

export const useClientList = (params: ClientListParams) =>
  useInfiniteQuery(clientListQuery(params));
export const useClient = (id: string) => useQuery(clientQuery(id));
export const useClientHistory = (id: string) => useQuery(historyQuery(id));
export const useClientEntries = (id: string) => useInfiniteQuery(entriesQuery(id));
export const useClientOpenings = (id: string) => useQuery(openingsQuery(id));

/** Set by the live stream when a client is deleted elsewhere, so an open page can say so. */
export const deletedClientKey = (id: string) => ['deleted-client', id] as const;

export function useClientDeleted(id: string): boolean {
  const query = useQuery({
    queryKey: deletedClientKey(id),
    queryFn: () => false,
    initialData: false,
    staleTime: Infinity,
  });
  return query.data;
}
