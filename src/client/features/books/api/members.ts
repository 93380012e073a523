import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiRoutes } from '../../../../shared/api-routes.ts';
import type { BookRole } from '../../../../shared/schemas/books.ts';
import { callApi } from '../../../lib/api-client.ts';
import { queryKeys } from '../../../lib/query-keys.ts';

export function useBookMembers() {
  return useQuery({
    queryKey: queryKeys.books.members,
    queryFn: ({ signal }) => callApi(apiRoutes.bookMembers, { signal }),
  });
}

export interface MemberChoice {
  role: BookRole;
  /** A collector's clients; ignored for the other roles. */
  clientIds: string[];
}

const bodyOf = ({ role, clientIds }: MemberChoice) =>
  role === 'collector' ? { role, clientIds } : { role };

/** The members and invitations change together (the count in the switcher with them). */
function useRefreshMembers() {
  const queryClient = useQueryClient();
  return async () => {
    await Promise.all([
      queryClient.invalidateQueries({ queryKey: queryKeys.books.members }),
      queryClient.invalidateQueries({ queryKey: queryKeys.session }),
    ]);
  };
}

export function useInviteMember() {
  const refresh = useRefreshMembers();
  return useMutation({
    mutationFn: (invite: MemberChoice & { email: string }) =>
      callApi(apiRoutes.inviteMember, { body: { email: invite.email, ...bodyOf(invite) } }),
    onSuccess: refresh,
  });
}

export function useRevokeInvitation() {
  const refresh = useRefreshMembers();
  return useMutation({
    mutationFn: (id: string) => callApi(apiRoutes.revokeInvitation, { params: { id } }),
    onSuccess: refresh,
  });
}

export function useChangeMember() {
  const refresh = useRefreshMembers();
  return useMutation({
    mutationFn: ({ userId, ...choice }: MemberChoice & { userId: string }) =>
      callApi(apiRoutes.changeMember, { params: { userId }, body: bodyOf(choice) }),
    onSuccess: refresh,
  });
}

export function useRemoveMember() {
  const refresh = useRefreshMembers();
  return useMutation({
    mutationFn: (userId: string) => callApi(apiRoutes.removeMember, { params: { userId } }),
    onSuccess: refresh,
  });
}

/** The book's clients by name, for choosing a collector's (the first 200 that match). */
export function useBookClients(q: string) {
  return useQuery({
    queryKey: queryKeys.clients.byName(q),
    queryFn: ({ signal }) => callApi(apiRoutes.clientList, { query: { q, limit: '200' }, signal }),
    placeholderData: (previous) => previous,
  });
}
