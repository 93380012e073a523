import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { InvitationBody } from '../../../../shared/schemas/account.ts';
import { apiRoutes } from '../../../../shared/api-routes.ts';
import { callApi } from '../../../lib/api-client.ts';
import { queryKeys } from '../../../lib/query-keys.ts';

const adminUsersQuery = queryOptions({
  queryKey: queryKeys.admin.users,
  queryFn: ({ signal }) => callApi(apiRoutes.adminUsers, { signal }),
});

export const useAdminUsers = () => useQuery(adminUsersQuery);

export function useSetDisabled() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, disabled }: { id: string; disabled: boolean }) =>
      callApi(disabled ? apiRoutes.disableUser : apiRoutes.enableUser, { params: { id } }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.admin.users }),
  });
}

export const useCreateResetLink = () =>
  useMutation({
    mutationFn: (id: string) => callApi(apiRoutes.createResetLink, { params: { id } }),
  });

export const useCreateInvitation = () =>
  useMutation({
    mutationFn: (body: InvitationBody) => callApi(apiRoutes.createInvitation, { body }),
  });
