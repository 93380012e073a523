import {
  infiniteQueryOptions,
  queryOptions,
  useInfiniteQuery,
  useQuery,
} from '@tanstack/react-query';
import { apiRoutes } from '../../../../shared/api-routes.ts';
import { callApi } from '../../../lib/api-client.ts';
import { queryKeys, type ClientListParams } from '../../../lib/query-keys.ts';

const clientListQuery = (params: ClientListParams) =>
  infiniteQueryOptions({
    queryKey: queryKeys.clients.list(params),
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
    queryKey: queryKeys.clients.one(id),
    queryFn: ({ signal }) => callApi(apiRoutes.client, { params: { id }, signal }),
  });

const historyQuery = (id: string) =>
  queryOptions({
    queryKey: queryKeys.clients.history(id),
    queryFn: ({ signal }) => callApi(apiRoutes.clientHistory, { params: { id }, signal }),
  });

export const useClientList = (params: ClientListParams) =>
  useInfiniteQuery(clientListQuery(params));
export const useClient = (id: string) => useQuery(clientQuery(id));
export const useClientHistory = (id: string) => useQuery(historyQuery(id));

/** True once the live stream has said the client was deleted elsewhere. */
export function useClientDeleted(id: string): boolean {
  const query = useQuery({
    queryKey: queryKeys.deletedClient(id),
    queryFn: () => false,
    initialData: false,
    staleTime: Infinity,
  });
  return query.data;
}
