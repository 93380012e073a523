import { useState } from 'react';
import type { AdminUser, OneTimeLink } from '../../../../shared/schemas/account.ts';
import { useFlash } from '../../../components/flash.tsx';
import { PageLoadError, PageLoading } from '../../../components/page-status.tsx';
import { useAdminUsers, useCreateResetLink, useSetDisabled } from '../api/admin.ts';
import { OneTimeLinkBox } from './one-time-link.tsx';

const when = (iso: string | null) =>
  iso === null
    ? 'never'
    : new Date(iso).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });

/** Every account of this instance, for the administrator. */
export function UserList() {
  const users = useAdminUsers();
  const setDisabled = useSetDisabled();
  const createReset = useCreateResetLink();
  const showFlash = useFlash();
  const [reset, setReset] = useState<{ email: string; link: OneTimeLink } | null>(null);

  if (users.isPending) return <PageLoading />;
  if (users.isError)
    return <PageLoadError error={users.error} onRetry={() => void users.refetch()} />;

  const toggle = (user: AdminUser) =>
    setDisabled.mutate(
      { id: user.id, disabled: !user.disabled },
      {
        onSuccess: () =>
          showFlash(`${user.email} ${user.disabled ? 'enabled' : 'disabled'}`, 'success'),
        onError: (error) => showFlash(error.message, 'danger'),
      },
    );

  const resetLink = (user: AdminUser) =>
    createReset.mutate(user.id, {
      onSuccess: (link) => setReset({ email: user.email, link }),
      onError: (error) => showFlash(error.message, 'danger'),
    });

  return (
    <>
      {reset && (
        <OneTimeLinkBox label={`Password reset link for ${reset.email}`} link={reset.link} />
      )}
      <div className="table-responsive">
        <table className="table align-middle" aria-label="Accounts">
          <thead>
            <tr>
              <th scope="col">E-mail</th>
              <th scope="col">Created</th>
              <th scope="col">Last seen</th>
              <th scope="col" className="text-end">
                Clients
              </th>
              <th scope="col">
                <span className="visually-hidden">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {users.data.users.map((user) => (
              <tr key={user.id}>
                <td className="text-break">
                  {user.email}
                  {user.isAdmin && (
                    <span className="badge text-bg-secondary ms-2">Administrator</span>
                  )}
                  {user.disabled && <span className="badge text-bg-danger ms-2">Disabled</span>}
                </td>
                <td>{when(user.createdAt)}</td>
                <td>{when(user.lastSeenAt)}</td>
                <td className="text-end">{user.clients}</td>
                <td className="text-end text-nowrap">
                  <button
                    type="button"
                    className="btn btn-outline-secondary btn-sm me-2"
                    aria-label={`Reset link for ${user.email}`}
                    disabled={createReset.isPending}
                    onClick={() => resetLink(user)}
                  >
                    Reset link
                  </button>
                  {!user.isAdmin && (
                    <button
                      type="button"
                      className={`btn btn-sm ${user.disabled ? 'btn-outline-success' : 'btn-outline-danger'}`}
                      aria-label={`${user.disabled ? 'Enable' : 'Disable'} ${user.email}`}
                      disabled={setDisabled.isPending}
                      onClick={() => toggle(user)}
                    >
                      {user.disabled ? 'Enable' : 'Disable'}
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
