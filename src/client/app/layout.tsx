import { useEffect } from 'react';
import { Outlet, useNavigate } from 'react-router';
import { useQueryClient } from '@tanstack/react-query';
import { FlashBar, useFlash } from '../components/flash.tsx';
import { Navbar } from '../components/navbar.tsx';
import { useLogout } from '../features/auth/api/logout.ts';
import { sessionQueryKey, useSession, type SessionResponse } from '../features/auth/api/session.ts';
import { onUnauthenticated } from '../lib/api-client.ts';
import { loginPathFor } from '../lib/next-path.ts';

export function Layout() {
  const session = useSession();
  const logout = useLogout();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const showFlash = useFlash();

  // A session that ends while the app is open (idle limit, logout elsewhere): back to /login.
  useEffect(
    () =>
      onUnauthenticated(() => {
        const wasSignedIn = queryClient.getQueryData<SessionResponse>(sessionQueryKey)?.user;
        if (!wasSignedIn) return;
        queryClient.removeQueries({
          predicate: (query) => query.queryKey[0] !== sessionQueryKey[0],
        });
        queryClient.setQueryData(sessionQueryKey, { user: null });
        showFlash('Your session has ended. Please log in again.', 'danger');
        void navigate(loginPathFor(window.location), { replace: true });
      }),
    [queryClient, showFlash, navigate],
  );

  const onLogout = () =>
    logout.mutate(undefined, {
      onSuccess: () => void navigate('/'),
      onError: () => showFlash('Logout failed', 'danger'),
    });

  return (
    <>
      <Navbar email={session.data?.user?.email ?? null} showJoin onLogout={onLogout} />
      <FlashBar />
      <main className="container py-4">
        <Outlet />
      </main>
    </>
  );
}
