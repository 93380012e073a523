import { useFlash } from '../../../components/flash.tsx';
import { PageLoadError, PageLoading } from '../../../components/page-status.tsx';
import { useI18n } from '../../../i18n/use-i18n.ts';
import { useAccountSessions, useEndOtherSessions, useEndSession } from '../api/account.ts';

/** Where this account is signed in: each session can be ended, or all but this one. */
export function SessionList() {
  const sessions = useAccountSessions();
  const endSession = useEndSession();
  const endOthers = useEndOtherSessions();
  const showFlash = useFlash();
  const { t, message, format } = useI18n();

  if (sessions.isPending) return <PageLoading />;
  if (sessions.isError)
    return <PageLoadError error={sessions.error} onRetry={() => void sessions.refetch()} />;
  const list = sessions.data.sessions;
  const others = list.filter((session) => !session.current).length;

  return (
    <>
      <div className="table-responsive">
        <table className="table align-middle" aria-label={t('account.sessions.table')}>
          <thead>
            <tr>
              <th scope="col">{t('account.sessions.device')}</th>
              <th scope="col" className="d-none d-sm-table-cell">
                {t('account.sessions.signed-in')}
              </th>
              <th scope="col">{t('account.sessions.last-seen')}</th>
              <th scope="col">
                <span className="visually-hidden">{t('account.sessions.action')}</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {list.map((session) => (
              <tr key={session.id}>
                <td>{session.device}</td>
                <td className="d-none d-sm-table-cell">{format.moment(session.createdAt)}</td>
                <td>{format.moment(session.lastSeenAt)}</td>
                <td className="text-end">
                  {session.current ? (
                    <span className="badge text-bg-success">
                      {t('account.sessions.this-device')}
                    </span>
                  ) : (
                    <button
                      type="button"
                      className="btn btn-outline-danger btn-sm"
                      aria-label={t('account.sessions.sign-out-label', {
                        device: session.device,
                        lastSeen: format.moment(session.lastSeenAt),
                      })}
                      disabled={endSession.isPending}
                      onClick={() =>
                        endSession.mutate(session.id, {
                          onSuccess: () => showFlash(t('account.sessions.signed-out'), 'success'),
                          onError: (error) => showFlash(message(error.message), 'danger'),
                        })
                      }
                    >
                      {t('account.sessions.sign-out')}
                    </button>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <button
        type="button"
        className="btn btn-outline-danger"
        disabled={others === 0 || endOthers.isPending}
        onClick={() =>
          endOthers.mutate(undefined, {
            onSuccess: ({ ended }) =>
              showFlash(t('account.sessions.signed-out-others', { count: ended }), 'success'),
            onError: (error) => showFlash(message(error.message), 'danger'),
          })
        }
      >
        {t('account.sessions.sign-out-others')}
      </button>
    </>
  );
}
