import { useFlash } from '../../../components/flash.tsx';
import { PageLoadError, PageLoading } from '../../../components/page-status.tsx';
import { useAccountSessions, useEndOtherSessions, useEndSession } from '../api/account.ts';

const when = (iso: string) =>
  new Date(iso).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });

/** Where this account is signed in: each session can be ended, or all but this one. */
export function SessionList() {
  const sessions = useAccountSessions();
  const endSession = useEndSession();
  const endOthers = useEndOtherSessions();
  const showFlash = useFlash();

  if (sessions.isPending) return <PageLoading />;
  if (sessions.isError)
    return <PageLoadError error={sessions.error} onRetry={() => void sessions.refetch()} />;
  const list = sessions.data.sessions;
  const others = list.filter((session) => !session.current).length;

  return (
    <>
      <div className="table-responsive">
        <table className="table align-middle" aria-label="Sessions">
          <thead>
            <tr>
              <th scope="col">Device</th>
              <th scope="col" className="d-none d-sm-table-cell">
                Signed in
              </th>
              <th scope="col">Last seen</th>
              <th scope="col">
                <span className="visually-hidden">Action</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {list.map((session) => (
              <tr key={session.id}>
                <td>{session.device}</td>
                <td className="d-none d-sm-table-cell">{when(session.createdAt)}</td>
                <td>{when(session.lastSeenAt)}</td>
                <td className="text-end">
                  {session.current ? (
                    <span className="badge text-bg-success">This device</span>
                  ) : (
                    <button
                      type="button"
                      className="btn btn-outline-danger btn-sm"
                      aria-label={`Sign out ${session.device}, last seen ${when(session.lastSeenAt)}`}
                      disabled={endSession.isPending}
                      onClick={() =>
                        endSession.mutate(session.id, {
                          onSuccess: () => showFlash('Signed out', 'success'),
                          onError: (error) => showFlash(error.message, 'danger'),
                        })
                      }
                    >
                      Sign out
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
              showFlash(
                `Signed out everywhere else (${ended} session${ended === 1 ? '' : 's'})`,
                'success',
              ),
            onError: (error) => showFlash(error.message, 'danger'),
          })
        }
      >
        Sign out everywhere else
      </button>
    </>
  );
}
