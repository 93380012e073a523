import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRoutes } from '../../../../shared/api-routes.ts';
import type {
  BalanceUpdate,
  Client,
  ClientInput,
  ClientUpdate,
} from '../../../../shared/schemas/clients.ts';
import { ApiError, callApi } from '../../../lib/api-client.ts';
import { queryKeys, refreshOwnerData } from '../../../lib/query-keys.ts';
import { clientQuery } from './queries.ts';

/** Every write is awaited: the caller flashes success only after the server confirmed it. */
function useClientMutation<Variables>(write: (variables: Variables) => Promise<Client>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: write,
    onSuccess: async (client) => {
      queryClient.setQueryData(queryKeys.clients.one(client.id), client);
      await refreshOwnerData(queryClient);
    },
    onError: async (error) => {
      // Changed elsewhere: fetch the current values so the user sees what they would overwrite.
      if (error instanceof ApiError && error.code === 'conflict')
        await refreshOwnerData(queryClient);
    },
  });
}

export const useAddClient = () =>
  useClientMutation((body: ClientInput) => callApi(apiRoutes.addClient, { body }));

export const useUpdateClient = (id: string) =>
  useClientMutation((body: ClientUpdate) =>
    callApi(apiRoutes.updateClient, { params: { id }, body }),
  );

export function useUpdateBalance(id: string) {
  const queryClient = useQueryClient();
  const mutation = useClientMutation((body: BalanceUpdate) =>
    callApi(apiRoutes.updateBalance, { params: { id }, body }),
  );
  /** The client as the server has it now, after a conflict. */
  const reloadClient = () => queryClient.fetchQuery({ ...clientQuery(id), staleTime: 0 });
  return { ...mutation, reloadClient };
}

export const useDeleteClient = (id: string) => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => callApi(apiRoutes.deleteClient, { params: { id } }),
    onSuccess: async () => {
      queryClient.removeQueries({ queryKey: queryKeys.clients.one(id) });
      await refreshOwnerData(queryClient);
    },
  });
};
