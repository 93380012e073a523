import { Navigate, Outlet, useLocation } from 'react-router';
import { useSession } from '../features/auth/api/session.ts';
import { loginPathFor } from '../lib/next-path.ts';
import { isSignOutExpected } from '../lib/sign-out-notice.ts';
import { PageLoading, PageLoadError } from '../components/page-status.tsx';
import { NoBookPage } from './no-book-page.ts';

/** The person's own pages, which need no book: their account, and the administrator's. */
const outsideBooks = /^\/(account|admin)(\/|$)/;

/**
 * Guards the routes that need a signed-in user: a visitor goes to /login and comes back after; a
 * person in no book (removed from their only one) is told so in place of a book's screens.
 */
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
  if (session.data.book === null && !outsideBooks.test(location.pathname)) return <NoBookPage />;
  return <Outlet />;
}
