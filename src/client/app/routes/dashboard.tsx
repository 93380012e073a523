import { lazy, Suspense } from 'react';
import { Link } from 'react-router';
import { useSession } from '../../features/auth/api/session.ts';
import { usePublicSettings } from '../../features/settings/api/settings.ts';
import { PageLoadError, PageLoading } from '../../components/page-status.tsx';

function SignedOutTiles({ showJoin }: { showJoin: boolean }) {
  return (
    <div className="row g-4 justify-content-center py-4">
      <div className="col-12 col-sm-6 col-lg-4">
        <Link to="/login" className="card tile text-decoration-none text-center h-100">
          <div className="card-body d-flex flex-column justify-content-center">
            <h2 className="card-title h4">Login</h2>
            <p className="card-text text-body-secondary">Sign in to see who owes what</p>
          </div>
        </Link>
      </div>
      {showJoin && (
        <div className="col-12 col-sm-6 col-lg-4">
          <Link to="/join" className="card tile text-decoration-none text-center h-100">
            <div className="card-body d-flex flex-column justify-content-center">
              <h2 className="card-title h4">Join</h2>
              <p className="card-text text-body-secondary">Create an account</p>
            </div>
          </Link>
        </div>
      )}
    </div>
  );
}

// The signed-in dashboard loads on demand: a visitor's first page stays small.
const ClientDashboard = lazy(async () => ({
  default: (await import('../../features/clients/components/client-dashboard.tsx')).ClientDashboard,
}));

export function DashboardPage() {
  const session = useSession();
  const publicSettings = usePublicSettings();
  if (session.isPending) return <PageLoading />;
  if (session.isError)
    return <PageLoadError error={session.error} onRetry={() => void session.refetch()} />;
  if (!session.data.user)
    return <SignedOutTiles showJoin={publicSettings.data?.allowRegistration ?? false} />;
  return (
    <Suspense fallback={<PageLoading />}>
      <ClientDashboard />
    </Suspense>
  );
}
