import { Navigate, Outlet, useLocation } from 'react-router';
import { useSession } from '../features/auth/api/session.ts';
import { loginPathFor } from '../lib/next-path.ts';
import { isSignOutExpected } from '../lib/sign-out-notice.ts';
import { PageLoading, PageLoadError } from '../components/page-status.tsx';

/** Guards the routes that need a signed-in user: a visitor goes to /login and comes back after. */
export function RequireAuth() {
  const location = useLocation();
  const session = useSession();
  if (session.isPending) return <PageLoading />;
  if (session.isError)
    return <PageLoadError error={session.error} onRetry={() => void session.refetch()} />;
  if (!session.data.user) {
    // Signed out on purpose (the account deleted): the dashboard, not the login page.
    return <Navigate to={isSignOutExpected() ? '/' : loginPathFor(location)} replace />;
  }
  return <Outlet />;
}
