import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRoutes } from '../../../../shared/api-routes.ts';
import type {
  BalanceUpdate,
  Client,
  ClientInput,
  ClientUpdate,
} from '../../../../shared/schemas/clients.ts';
import type { EntryInput, VoidInput } from '../../../../shared/schemas/ledger.ts';
import { ApiError, callApi } from '../../../lib/api-client.ts';
import { clientKey, clientQuery, clientsKey } from './queries.ts';

/** Every write is awaited: the caller flashes success only after the server confirmed it. */
function useClientMutation<Variables>(
  write: (variables: Variables) => Promise<Client | undefined>,
) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: write,
    onSuccess: async (client) => {
      if (client) queryClient.setQueryData(clientKey(client.id), client);
      await queryClient.invalidateQueries({ queryKey: clientsKey });
    },
    onError: async (error) => {
      // Changed elsewhere: fetch the current values so the user sees what they would overwrite.
      if (error instanceof ApiError && error.code === 'conflict')
        await queryClient.invalidateQueries({ queryKey: clientsKey });
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
      queryClient.removeQueries({ queryKey: clientKey(id) });
      await queryClient.invalidateQueries({ queryKey: clientsKey });
    },
  });
};

/** A payment, charge or credit; the client, its ledger and history and the list refresh. */
export const useRecordEntry = (id: string) =>
  useClientMutation(async (body: EntryInput) => {
    const recorded = await callApi(apiRoutes.recordEntry, { params: { id }, body });
    return recorded.client;
  });

export const useVoidEntry = (id: string) =>
  useClientMutation(async ({ entryId, ...body }: VoidInput & { entryId: number }) => {
    const recorded = await callApi(apiRoutes.voidEntry, { params: { id, entryId }, body });
    return recorded.client;
  });
