import {
  infiniteQueryOptions,
  queryOptions,
  useInfiniteQuery,
  useMutation,
  useQuery,
  useQueryClient,
} from '@tanstack/react-query';
import { apiRoutes } from '../../../../shared/api-routes.ts';
import type { EntryInput, RecordedEntry, VoidInput } from '../../../../shared/schemas/ledger.ts';
import { ApiError, callApi } from '../../../lib/api-client.ts';
import { queryKeys, refreshOwnerData } from '../../../lib/query-keys.ts';

/** The client's ledger in pages, from the newest back: each page is oldest first. */
const entriesQuery = (clientId: string) =>
  infiniteQueryOptions({
    queryKey: queryKeys.ledger.entries(clientId),
    queryFn: ({ signal, pageParam }) =>
      callApi(apiRoutes.clientEntries, {
        params: { id: clientId },
        query: { cursor: pageParam ?? undefined },
        signal,
      }),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.nextCursor,
  });

/** The client's opening balances (few: one, and one more for each change of currency). */
const openingsQuery = (clientId: string) =>
  queryOptions({
    queryKey: queryKeys.ledger.openings(clientId),
    queryFn: ({ signal }) =>
      callApi(apiRoutes.clientEntries, {
        params: { id: clientId },
        query: { kind: 'opening', limit: '500' },
        signal,
      }),
  });

export const useClientEntries = (clientId: string) => useInfiniteQuery(entriesQuery(clientId));
export const useClientOpenings = (clientId: string) => useQuery(openingsQuery(clientId));

/**
 * A write to the ledger, awaited (the caller flashes success only after the server confirmed
 * it): the client as it now stands is kept at once, and everything that follows the owner's
 * data (the list, the history, the overview, the reminders) refreshes.
 */
function useLedgerWrite<Variables>(write: (variables: Variables) => Promise<RecordedEntry>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: write,
    onSuccess: async ({ client }) => {
      queryClient.setQueryData(queryKeys.clients.one(client.id), client);
      await refreshOwnerData(queryClient);
    },
    onError: async (error) => {
      // Changed elsewhere (an entry voided in another tab): show what the server has now.
      if (error instanceof ApiError && error.code === 'conflict')
        await refreshOwnerData(queryClient);
    },
  });
}

/** A payment, charge or credit. */
export const useRecordEntry = (clientId: string) =>
  useLedgerWrite((body: EntryInput) =>
    callApi(apiRoutes.recordEntry, { params: { id: clientId }, body }),
  );

export const useVoidEntry = (clientId: string) =>
  useLedgerWrite(({ entryId, ...body }: VoidInput & { entryId: number }) =>
    callApi(apiRoutes.voidEntry, { params: { id: clientId, entryId }, body }),
  );

/**
 * The client's ledger as loaded so far, earliest first (pages come newest first, each oldest
 * first), and how to load the page before it; null until the first page has come.
 */
export function useLedgerPages(clientId: string) {
  const entries = useClientEntries(clientId);
  if (!entries.isSuccess) return null;
  return {
    entries: [...entries.data.pages].reverse().flatMap((page) => page.entries),
    showEarlier:
      entries.hasNextPage && !entries.isFetchingNextPage
        ? () => void entries.fetchNextPage()
        : undefined,
  };
}
