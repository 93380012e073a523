import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiRoutes } from '../../../../shared/api-routes.ts';
import type { ClientLanguage, ClientLinkInput } from '../../../../shared/schemas/client-links.ts';
import { callApi } from '../../../lib/api-client.ts';
import { clientsKey } from './queries.ts';

/** Under the clients key, so "last opened" refreshes when the live stream reports an opening. */
const clientLinkKey = (id: string) => [...clientsKey, 'link', id] as const;

const readLink = (id: string, signal?: AbortSignal) =>
  callApi(apiRoutes.clientLink, { params: { id }, signal });

export const useClientLink = (id: string) =>
  useQuery({
    queryKey: clientLinkKey(id),
    queryFn: ({ signal }) => readLink(id, signal),
  });

export function useClientLinkChanges(id: string) {
  const queryClient = useQueryClient();
  const refresh = () => queryClient.invalidateQueries({ queryKey: clientsKey });
  return {
    create: useMutation({
      mutationFn: (body: ClientLinkInput) =>
        callApi(apiRoutes.createClientLink, { params: { id }, body }),
      onSettled: refresh,
    }),
    revoke: useMutation({
      mutationFn: () => callApi(apiRoutes.revokeClientLink, { params: { id } }),
      onSettled: refresh,
    }),
    language: useMutation({
      mutationFn: (language: ClientLanguage) =>
        callApi(apiRoutes.setClientLanguage, { params: { id }, body: { language } }),
      // The select keeps the answer at once, not the language from before until the refetch.
      onSuccess: (answer) =>
        queryClient.setQueryData(
          clientLinkKey(id),
          (state: Awaited<ReturnType<typeof readLink>> | undefined) =>
            state && { ...state, language: answer.language },
        ),
      onSettled: refresh,
    }),
  };
}
