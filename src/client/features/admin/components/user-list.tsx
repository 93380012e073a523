import { useState } from 'react';
import type { AdminUser, OneTimeLink } from '../../../../shared/schemas/account.ts';
import { useFlash } from '../../../components/flash.tsx';
import { PageLoadError, PageLoading } from '../../../components/page-status.tsx';
import { useI18n } from '../../../i18n/use-i18n.ts';
import { useAdminUsers, useCreateResetLink, useSetDisabled } from '../api/admin.ts';
import { OneTimeLinkBox } from './one-time-link.tsx';

/** Every account of this instance, for the administrator. */
export function UserList() {
  const users = useAdminUsers();
  const setDisabled = useSetDisabled();
  const createReset = useCreateResetLink();
  const showFlash = useFlash();
  const { t, message, format } = useI18n();
  const when = (iso: string | null) => (iso === null ? t('admin.users.never') : format.moment(iso));
  const [reset, setReset] = useState<{ email: string; link: OneTimeLink } | null>(null);

  if (users.isPending) return <PageLoading />;
  if (users.isError)
    return <PageLoadError error={users.error} onRetry={() => void users.refetch()} />;

  const toggle = (user: AdminUser) =>
    setDisabled.mutate(
      { id: user.id, disabled: !user.disabled },
      {
        onSuccess: () =>
          showFlash(
            t(user.disabled ? 'admin.users.enabled' : 'admin.users.disabled', {
              email: user.email,
            }),
            'success',
          ),
        onError: (error) => showFlash(message(error.message), 'danger'),
      },
    );

  const resetLink = (user: AdminUser) =>
    createReset.mutate(user.id, {
      onSuccess: (link) => setReset({ email: user.email, link }),
      onError: (error) => showFlash(message(error.message), 'danger'),
    });

  return (
    <>
      {reset && (
        <OneTimeLinkBox
          label={t('admin.users.password-reset-link-for', { email: reset.email })}
          link={reset.link}
        />
      )}
      <div className="table-responsive">
        <table className="table align-middle" aria-label={t('admin.users.accounts')}>
          <thead>
            <tr>
              <th scope="col">{t('admin.users.email')}</th>
              <th scope="col">{t('admin.users.created')}</th>
              <th scope="col">{t('admin.users.last-seen')}</th>
              <th scope="col" className="text-end">
                {t('admin.users.clients')}
              </th>
              <th scope="col">
                <span className="visually-hidden">{t('admin.users.actions')}</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {users.data.users.map((user) => (
              <tr key={user.id}>
                <td className="text-break">
                  {user.email}
                  {user.isAdmin && (
                    <span className="badge text-bg-secondary ms-2">
                      {t('admin.users.administrator')}
                    </span>
                  )}
                  {user.disabled && (
                    <span className="badge text-bg-danger ms-2">
                      {t('admin.users.disabled-badge')}
                    </span>
                  )}
                </td>
                <td>{when(user.createdAt)}</td>
                <td>{when(user.lastSeenAt)}</td>
                <td className="text-end">{user.clients}</td>
                <td className="text-end text-nowrap">
                  <button
                    type="button"
                    className="btn btn-outline-secondary btn-sm me-2"
                    aria-label={t('admin.users.reset-link-for', { email: user.email })}
                    disabled={createReset.isPending}
                    onClick={() => resetLink(user)}
                  >
                    {t('admin.users.reset-link')}
                  </button>
                  {!user.isAdmin && (
                    <button
                      type="button"
                      className={`btn btn-sm ${user.disabled ? 'btn-outline-success' : 'btn-outline-danger'}`}
                      aria-label={t(
                        user.disabled ? 'admin.users.enable-email' : 'admin.users.disable-email',
                        {
                          email: user.email,
                        },
                      )}
                      disabled={setDisabled.isPending}
                      onClick={() => toggle(user)}
                    >
                      {t(user.disabled ? 'admin.users.enable' : 'admin.users.disable')}
                    </button>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </>
  );
}
