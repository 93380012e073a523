import {
  infiniteQueryOptions,
  queryOptions,
  useInfiniteQuery,
  useQuery,
} from '@tanstack/react-query';
import type {
  Ageing,
  Client,
  ClientList,
  ClientListQuery,
} from '../../../../shared/schemas/clients.ts';
import type { HistoryList } from '../../../../shared/schemas/events.ts';
import type { EntryList } from '../../../../shared/schemas/ledger.ts';
import { apiRequest } from '../../../lib/api-client.ts';

export const clientsKey = ['clients'] as const;
export const clientKey = (id: string) => ['clients', 'one', id] as const;
export const historyKey = (id: string) => ['clients', 'history', id] as const;
export const entriesKey = (id: string) => ['clients', 'entries', id] as const;

export type ClientListParams = Omit<ClientListQuery, 'cursor' | 'limit'>;

export const clientListQuery = (params: ClientListParams) =>
  infiniteQueryOptions({
    queryKey: [...clientsKey, 'list', params] as const,
    queryFn: ({ signal, pageParam }) => {
      const search = new URLSearchParams(
        Object.entries({ ...params, cursor: pageParam ?? undefined }).filter(
          (entry): entry is [string, string] => typeof entry[1] === 'string' && entry[1] !== '',
        ),
      );
      const query = search.size > 0 ? `?${search.toString()}` : '';
      return apiRequest<ClientList>('GET', `/api/clients${query}`, { signal });
    },
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.nextCursor,
  });

export const clientQuery = (id: string) =>
  queryOptions({
    queryKey: clientKey(id),
    queryFn: ({ signal }) =>
      apiRequest<Client>('GET', `/api/clients/${encodeURIComponent(id)}`, { signal }),
  });

export const historyQuery = (id: string) =>
  queryOptions({
    queryKey: historyKey(id),
    queryFn: ({ signal }) =>
      apiRequest<HistoryList>('GET', `/api/clients/${encodeURIComponent(id)}/history`, { signal }),
  });

export const entriesQuery = (id: string) =>
  queryOptions({
    queryKey: entriesKey(id),
    queryFn: ({ signal }) =>
      apiRequest<EntryList>('GET', `/api/clients/${encodeURIComponent(id)}/entries`, { signal }),
  });

/** Under the clients key, so every change the live stream reports refreshes it too. */
export const ageingQuery = queryOptions({
  queryKey: [...clientsKey, 'ageing'] as const,
  queryFn: ({ signal }) => apiRequest<Ageing>('GET', '/api/ageing', { signal }),
});

export const useAgeing = () => useQuery(ageingQuery);

export const useClientList = (params: ClientListParams) =>
  useInfiniteQuery(clientListQuery(params));
export const useClient = (id: string) => useQuery(clientQuery(id));
export const useClientHistory = (id: string) => useQuery(historyQuery(id));
export const useClientEntries = (id: string) => useQuery(entriesQuery(id));

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
