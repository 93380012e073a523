import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiRoutes } from '../../../../shared/api-routes.ts';
import type { ClientLanguage, ClientLinkInput } from '../../../../shared/schemas/client-links.ts';
import { callApi } from '../../../lib/api-client.ts';
import { queryKeys, refreshOwnerData } from '../../../lib/query-keys.ts';

const readLink = (clientId: string, signal?: AbortSignal) =>
  callApi(apiRoutes.clientLink, { params: { id: clientId }, signal });

/** One of the owner's data groups: "last opened" refreshes when the live stream reports it. */
export const useClientLink = (clientId: string) =>
  useQuery({
    queryKey: queryKeys.clientLinks.ofClient(clientId),
    queryFn: ({ signal }) => readLink(clientId, signal),
  });

export function useClientLinkChanges(clientId: string) {
  const queryClient = useQueryClient();
  // A link made or revoked shows in the client's history too.
  const refresh = () => refreshOwnerData(queryClient);
  return {
    create: useMutation({
      mutationFn: (body: ClientLinkInput) =>
        callApi(apiRoutes.createClientLink, { params: { id: clientId }, body }),
      onSettled: refresh,
    }),
    revoke: useMutation({
      mutationFn: () => callApi(apiRoutes.revokeClientLink, { params: { id: clientId } }),
      onSettled: refresh,
    }),
    language: useMutation({
      mutationFn: (language: ClientLanguage) =>
        callApi(apiRoutes.setClientLanguage, { params: { id: clientId }, body: { language } }),
      // The select keeps the answer at once, not the language from before until the refetch.
      onSuccess: (answer) =>
        queryClient.setQueryData(
          queryKeys.clientLinks.ofClient(clientId),
          (state: Awaited<ReturnType<typeof readLink>> | undefined) =>
            state && { ...state, language: answer.language },
        ),
      onSettled: refresh,
    }),
  };
}
