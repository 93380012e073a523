import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiRoutes } from '../../../../shared/api-routes.ts';
import type {
  ChangeEmailBody,
  ChangePasswordBody,
  DeleteAccountBody,
  PasswordResetBody,
} from '../../../../shared/schemas/account.ts';
import type { Locale } from '../../../../shared/locales.ts';
import { useI18n } from '../../../i18n/use-i18n.ts';
import { callApi } from '../../../lib/api-client.ts';
import { forgetAllButSession, queryKeys } from '../../../lib/query-keys.ts';
import { cancelExpectedSignOut, expectSignOut } from '../../../lib/sign-out-notice.ts';

/** The server names each device in the shown language: a list per language. */
const accountSessionsQuery = (locale: Locale) =>
  queryOptions({
    queryKey: queryKeys.account.sessionsIn(locale),
    queryFn: ({ signal }) => callApi(apiRoutes.accountSessions, { signal }),
  });

export function useAccountSessions() {
  const { locale } = useI18n();
  return useQuery(accountSessionsQuery(locale));
}

/**
 * A change that ends sessions: the list is read again, and so are the links, whose makers may
 * have ended.
 */
function useSessionsChange<Input, Output>(request: (input: Input) => Promise<Output>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: request,
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: queryKeys.account.sessions }),
        queryClient.invalidateQueries({ queryKey: queryKeys.account.clientLinks }),
      ]),
  });
}

export const useEndSession = () =>
  useSessionsChange((id: string) => callApi(apiRoutes.endSession, { params: { id } }));

export const useEndOtherSessions = () =>
  useSessionsChange(() => callApi(apiRoutes.endOtherSessions));

export const useChangePassword = () =>
  useSessionsChange((body: ChangePasswordBody) => callApi(apiRoutes.changePassword, { body }));

/** A new e-mail ends other sessions and tokens, as a new password does. */
export function useChangeEmail() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: ChangeEmailBody) => callApi(apiRoutes.changeEmail, { body }),
    onSuccess: ({ user }) => {
      queryClient.setQueryData(queryKeys.session, { user });
      return Promise.all([
        queryClient.invalidateQueries({ queryKey: queryKeys.account.sessions }),
        queryClient.invalidateQueries({ queryKey: queryKeys.account.clientLinks }),
      ]);
    },
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
        await callApi(apiRoutes.deleteAccount, { body });
      } catch (error) {
        cancelExpectedSignOut();
        throw error;
      }
    },
  });
  const forgetSession = () => {
    forgetAllButSession(queryClient);
    queryClient.setQueryData(queryKeys.session, { user: null });
  };
  return { mutation, forgetSession };
}

export const useResetPassword = () =>
  useMutation({
    mutationFn: (body: PasswordResetBody) => callApi(apiRoutes.resetPassword, { body }),
  });
