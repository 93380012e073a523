import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type {
  AdminUsers,
  OneTimeLink,
  InvitationBody,
} from '../../../../shared/schemas/account.ts';
import { apiRequest } from '../../../lib/api-client.ts';

export const adminUsersKey = ['admin', 'users'] as const;

export const adminUsersQuery = queryOptions({
  queryKey: adminUsersKey,
  queryFn: ({ signal }) => apiRequest<AdminUsers>('GET', '/api/admin/users', { signal }),
});

export const useAdminUsers = () => useQuery(adminUsersQuery);

export function useSetDisabled() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, disabled }: { id: string; disabled: boolean }) =>
      apiRequest<undefined>(
        'POST',
        `/api/admin/users/${encodeURIComponent(id)}/${disabled ? 'disable' : 'enable'}`,
        { body: {} },
      ),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: adminUsersKey }),
  });
}

export const useCreateResetLink = () =>
  useMutation({
    mutationFn: (id: string) =>
      apiRequest<OneTimeLink>('POST', `/api/admin/users/${encodeURIComponent(id)}/password-reset`, {
        body: {},
      }),
  });

export const useCreateInvitation = () =>
  useMutation({
    mutationFn: (body: InvitationBody) =>
      apiRequest<OneTimeLink>('POST', '/api/admin/invitations', { body }),
  });
