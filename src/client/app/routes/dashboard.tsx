import { lazy, Suspense } from 'react';
import { Link, Navigate } from 'react-router';
import { LogIn, UserPlus } from 'lucide-react';
import { brandName } from '../../../shared/constants.ts';
import { useDocumentTitle } from '../../components/document-title.ts';
import { useSession, useSetupAwaits } from '../../features/auth/api/session.ts';
import { usePublicSettings } from '../../features/settings/api/settings.ts';
import { PageLoadError, PageLoading } from '../../components/page-status.tsx';
import { useI18n } from '../../i18n/use-i18n.ts';
import { loadChunk } from '../../lib/load-chunk.ts';
import { useBookAccess } from '../../lib/session-query.ts';
import { apiRoutes } from '../../../shared/api-routes.ts';
import { NoBookPage } from '../no-book-page.ts';
import type { Currency } from '../../../shared/money.ts';

function SignedOutTiles({ showJoin }: { showJoin: boolean }) {
  const { t } = useI18n();
  return (
    <>
      <div className="text-center pt-4">
        <h1>{t('dashboard.welcome', { brand: brandName })}</h1>
        <p className="lead text-body-secondary mb-0">{t('dashboard.tagline')}</p>
      </div>
      <div className="row g-4 justify-content-center py-4">
        <div className="col-12 col-sm-6 col-lg-4">
          <Link to="/login" className="card tile text-decoration-none text-center h-100">
            <div className="card-body d-flex flex-column justify-content-center">
              <span className="tile-icon" aria-hidden="true">
                <LogIn size={22} />
              </span>
              <h2 className="card-title h4">{t('dashboard.log-in.title')}</h2>
              <p className="card-text text-body-secondary">{t('dashboard.log-in.text')}</p>
            </div>
          </Link>
        </div>
        {showJoin && (
          <div className="col-12 col-sm-6 col-lg-4">
            <Link to="/join" className="card tile text-decoration-none text-center h-100">
              <div className="card-body d-flex flex-column justify-content-center">
                <span className="tile-icon" aria-hidden="true">
                  <UserPlus size={22} />
                </span>
                <h2 className="card-title h4">{t('dashboard.join.title')}</h2>
                <p className="card-text text-body-secondary">{t('dashboard.join.text')}</p>
              </div>
            </Link>
          </div>
        )}
      </div>
    </>
  );
}

// The signed-in dashboard loads on demand: a visitor's first page stays small. Its overview and
// its list load side by side, so neither moves the other when it arrives. Their texts are the
// first page's (src/client/locales/<language>/*.json): no other page's texts are fetched.
const SignedInDashboard = lazy(async () => {
  const [
    { DashboardOverview },
    { AgeingSummary },
    { DueRemindersCard },
    { RemindersPausedNotice },
    { useOverview },
    { ClientDashboard, useListFiltered },
  ] = await Promise.all([
    loadChunk(() => import('../../features/overview/components/dashboard-overview.tsx')),
    loadChunk(() => import('../../features/overview/components/ageing-summary.tsx')),
    loadChunk(() => import('../../features/reminders/components/due-reminders-card.tsx')),
    loadChunk(() => import('../../features/reminders/components/reminders-paused-notice.tsx')),
    loadChunk(() => import('../../features/overview/api/overview.ts')),
    loadChunk(() => import('../../features/clients/components/client-dashboard.tsx')),
  ]);
  // The list first, with its summary strip: whether reminders are paused while clients are
  // overdue, the reminders due today (only without a mail server) and the overview's cards and
  // charts come after it (decision 024).
  // What spans the whole book, which a collector (who sees only their clients) is not shown.
  function WholeBook({ filtered }: { filtered: boolean }) {
    // The overview counts every client, whatever the list's filter (a client has one currency).
    const overdueClients = (useOverview().data?.currencies ?? []).reduce(
      (sum, row) => sum + row.clientsOverdue,
      0,
    );
    // The reminders to send, and the plan paused, are for who keeps the book; a viewer reads.
    const keeps = useBookAccess()(apiRoutes.markReminderSent.access);
    return (
      <>
        {keeps && <RemindersPausedNotice overdueClients={overdueClients} />}
        {keeps && <DueRemindersCard />}
        <DashboardOverview filtered={filtered} />
      </>
    );
  }
  function SignedIn({ mainCurrency }: { mainCurrency: Currency }) {
    const filtered = useListFiltered();
    const wholeBook = useBookAccess()(apiRoutes.overview.access);
    return (
      <>
        <ClientDashboard
          mainCurrency={mainCurrency}
          ageing={wholeBook ? <AgeingSummary filtered={filtered} /> : null}
        />
        {wholeBook && <WholeBook filtered={filtered} />}
      </>
    );
  }
  return { default: SignedIn };
});

export function DashboardPage() {
  const session = useSession();
  const publicSettings = usePublicSettings();
  const setup = useSetupAwaits();
  const can = useBookAccess();
  const { t } = useI18n();
  const noBook = session.data?.user ? session.data.book === null : false;
  useDocumentTitle(
    session.data?.user ? (noBook ? t('books.none.title') : t('dashboard.title')) : null,
  );
  if (session.isPending) return <PageLoading />;
  if (session.isError)
    return <PageLoadError error={session.error} onRetry={() => void session.refetch()} />;
  if (!session.data.user)
    return <SignedOutTiles showJoin={publicSettings.data?.allowRegistration ?? false} />;
  // Removed from their only book: no book's screens, but a way to start one.
  if (noBook) return <NoBookPage />;
  // A new owner (no client, the setup neither done nor skipped) sets the business up first.
  if (setup.pending && can(apiRoutes.finishSetup.access)) return <PageLoading />;
  // Only an owner sets a book up; another member of a new book sees it as it is.
  if (setup.awaits && can(apiRoutes.finishSetup.access)) return <Navigate to="/setup" replace />;
  return (
    <Suspense fallback={<PageLoading />}>
      <SignedInDashboard mainCurrency={session.data.firstRun?.mainCurrency ?? 'USD'} />
    </Suspense>
  );
}
