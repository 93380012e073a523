import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type {
  AccountSessions,
  ChangedEmail,
  ChangeEmailBody,
  ChangePasswordBody,
  DeleteAccountBody,
  EndedSessions,
  PasswordResetBody,
} from '../../../../shared/schemas/account.ts';
import type { Locale } from '../../../../shared/locales.ts';
import { useI18n } from '../../../i18n/use-i18n.ts';
import { apiRequest } from '../../../lib/api-client.ts';
import { cancelExpectedSignOut, expectSignOut } from '../../../lib/sign-out-notice.ts';

const sessionKey = ['session'] as const;
export const accountSessionsKey = ['account', 'sessions'] as const;

/** The server names each device in the shown language: a list per language. */
const accountSessionsQuery = (locale: Locale) =>
  queryOptions({
    queryKey: [...accountSessionsKey, locale],
    queryFn: ({ signal }) =>
      apiRequest<AccountSessions>('GET', '/api/account/sessions', { signal }),
  });

export function useAccountSessions() {
  const { locale } = useI18n();
  return useQuery(accountSessionsQuery(locale));
}

/** A change that ends sessions: the list is read again. */
function useSessionsChange<Input, Output>(request: (input: Input) => Promise<Output>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: request,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: accountSessionsKey }),
  });
}

export const useEndSession = () =>
  useSessionsChange((id: string) =>
    apiRequest<undefined>('DELETE', `/api/account/sessions/${encodeURIComponent(id)}`),
  );

export const useEndOtherSessions = () =>
  useSessionsChange(() =>
    apiRequest<EndedSessions>('POST', '/api/account/sessions/end-others', {
      body: {},
    }),
  );

export const useChangePassword = () =>
  useSessionsChange((body: ChangePasswordBody) =>
    apiRequest<undefined>('POST', '/api/account/password', { body }),
  );

export function useChangeEmail() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: ChangeEmailBody) =>
      apiRequest<ChangedEmail>('POST', '/api/account/email', {
        body,
      }),
    onSuccess: ({ user }) => queryClient.setQueryData(sessionKey, { user }),
  });
}

/**
 * Deleting the account, and forgetting the session afterwards: the page moves away first, so the
 * guard of signed-in pages does not send it to the login page.
 */
export function useDeleteAccount() {
  const queryClient = useQueryClient();
  const mutation = useMutation({
    mutationFn: async (body: DeleteAccountBody) => {
      expectSignOut();
      try {
        await apiRequest<undefined>('DELETE', '/api/account', { body });
      } catch (error) {
        cancelExpectedSignOut();
        throw error;
      }
    },
  });
  const forgetSession = () => {
    queryClient.removeQueries({ predicate: (query) => query.queryKey[0] !== sessionKey[0] });
    queryClient.setQueryData(sessionKey, { user: null });
  };
  return { mutation, forgetSession };
}

export const useResetPassword = () =>
  useMutation({
    mutationFn: (body: PasswordResetBody) =>
      apiRequest<undefined>('POST', '/api/auth/password-reset', { body }),
  });
