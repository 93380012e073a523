import { Suspense, useEffect, useRef } from 'react';
import { Outlet, useLocation, useNavigate } from 'react-router';
import { useQueryClient } from '@tanstack/react-query';
import { FlashBar, useFlash } from '../components/flash.tsx';
import { Navbar } from '../components/navbar.tsx';
import { PageErrorBoundary } from '../components/page-error-boundary.tsx';
import { PageLoading } from '../components/page-status.tsx';
import { useFocusHeadingOnNavigation } from '../components/focus-heading.ts';
import { useLogout } from '../features/auth/api/logout.ts';
import { BookSwitcher } from '../features/books/components/book-switcher.tsx';
import { useSession, type SessionResponse } from '../features/auth/api/session.ts';
import { useAccountLanguage } from '../features/settings/api/language.ts';
import { usePublicSettings } from '../features/settings/api/settings.ts';
import { onForbidden, onUnauthenticated } from '../lib/api-client.ts';
import { loginPathFor } from '../lib/next-path.ts';
import { forgetAllButSession, queryKeys } from '../lib/query-keys.ts';
import { cancelExpectedSignOut, isSignOutExpected } from '../lib/sign-out-notice.ts';
import { i18n } from '../i18n/i18n.ts';
import { useI18n } from '../i18n/use-i18n.ts';
import { useLiveUpdates } from './live-updates.ts';

export function Layout() {
  const session = useSession();
  useAccountLanguage(session.data);
  const publicSettings = usePublicSettings({ poll: !session.data?.user });
  const logout = useLogout();
  const navigate = useNavigate();
  const location = useLocation();
  const queryClient = useQueryClient();
  const showFlash = useFlash();
  const { t } = useI18n();
  const signedIn = Boolean(session.data?.user);
  const book = signedIn ? (session.data?.book ?? null) : null;
  const books = session.data?.books ?? [];
  const liveStatus = useLiveUpdates(book?.id ?? null);
  const main = useRef<HTMLElement>(null);
  useFocusHeadingOnNavigation(main, location.pathname);

  // A call answered 401 while we thought we were signed in: the session ended on the server.
  useEffect(
    () =>
      onUnauthenticated(() => {
        const wasSignedIn = queryClient.getQueryData<SessionResponse>(queryKeys.session)?.user;
        if (!wasSignedIn) return;
        forgetAllButSession(queryClient);
        queryClient.setQueryData(queryKeys.session, { user: null });
        // Signed out on purpose (the account deleted): the dashboard, not the login page.
        void navigate(isSignOutExpected() ? '/' : loginPathFor(window.location), {
          replace: true,
        });
      }),
    [queryClient, navigate],
  );

  // Refused: the person's role or membership may have changed since the session was read (an
  // owner removed them); asked again, the session leads to the no-book page or the new role's
  // screens.
  useEffect(
    () =>
      onForbidden(() => {
        if (!queryClient.getQueryData<SessionResponse>(queryKeys.session)?.user) return;
        void queryClient.invalidateQueries({ queryKey: queryKeys.session });
      }),
    [queryClient],
  );

  // However the app learns that the session is gone, the user is told, unless they logged out.
  const userId = session.data?.user?.id ?? null;
  const previousUserId = useRef<string | null>(null);
  const loggingOut = useRef(false);
  useEffect(() => {
    if (
      previousUserId.current !== null &&
      userId === null &&
      !loggingOut.current &&
      !isSignOutExpected()
    ) {
      showFlash(i18n._('layout.session-ended'), 'danger');
    }
    // A sign-out asked for stays expected until someone signs in again.
    if (userId !== null) cancelExpectedSignOut();
    previousUserId.current = userId;
    loggingOut.current = false;
  }, [userId, showFlash]);

  const onLogout = () => {
    loggingOut.current = true;
    logout.mutate(undefined, {
      onSuccess: () => void navigate('/'),
      onError: () => {
        loggingOut.current = false;
        showFlash(i18n._('layout.logout-failed'), 'danger');
      },
    });
  };

  return (
    <>
      <a
        className="skip-link"
        href="#main"
        onClick={(event) => {
          // Focus without adding "#main" to the address the router keeps.
          event.preventDefault();
          main.current?.focus();
        }}
      >
        {t('layout.skip-to-main')}
      </a>
      <Navbar
        email={session.isPending ? undefined : (session.data?.user?.email ?? null)}
        isAdmin={session.data?.user?.isAdmin ?? false}
        // Until the switch is known, Join stays hidden rather than flashing in and out.
        showJoin={publicSettings.data?.allowRegistration ?? false}
        onLogout={onLogout}
        bookSwitcher={
          book && books.length > 1
            ? (close) => <BookSwitcher current={book} books={books} onChosen={close} />
            : undefined
        }
      />
      <FlashBar />
      {signedIn && liveStatus === 'offline' && (
        <div className="live-status text-bg-warning text-center small py-1" role="status">
          {t('layout.offline')}
        </div>
      )}
      <main id="main" ref={main} tabIndex={-1} className="container py-4">
        <PageErrorBoundary resetKey={location.pathname}>
          {/* Pages load their code on demand (app/router.tsx). */}
          <Suspense fallback={<PageLoading />}>
            <Outlet />
          </Suspense>
        </PageErrorBoundary>
      </main>
    </>
  );
}
