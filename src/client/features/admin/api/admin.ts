import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  adminUsersSchema,
  oneTimeLinkSchema,
  type InvitationBody,
} from '../../../../shared/schemas/account.ts';
import { apiRequest } from '../../../lib/api-client.ts';

const noContent = { parse: () => undefined };
export const adminUsersKey = ['admin', 'users'] as const;

export const adminUsersQuery = queryOptions({
  queryKey: adminUsersKey,
  queryFn: ({ signal }) =>
    apiRequest('GET', '/api/admin/users', { schema: adminUsersSchema, signal }),
});

export const useAdminUsers = () => useQuery(adminUsersQuery);

export function useSetDisabled() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, disabled }: { id: string; disabled: boolean }) =>
      apiRequest(
        'POST',
        `/api/admin/users/${encodeURIComponent(id)}/${disabled ? 'disable' : 'enable'}`,
        { body: {}, schema: noContent },
      ),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: adminUsersKey }),
  });
}

export const useCreateResetLink = () =>
  useMutation({
    mutationFn: (id: string) =>
      apiRequest('POST', `/api/admin/users/${encodeURIComponent(id)}/password-reset`, {
        body: {},
        schema: oneTimeLinkSchema,
      }),
  });

export const useCreateInvitation = () =>
  useMutation({
    mutationFn: (body: InvitationBody) =>
      apiRequest('POST', '/api/admin/invitations', { body, schema: oneTimeLinkSchema }),
  });
