import { Link } from 'react-router';
import { PageLoadError, PageLoading } from '../../../components/page-status.tsx';
import { useClientList } from '../api/queries.ts';
import { ClientTable } from './client-table.tsx';
import { TotalOwed } from './total-owed.tsx';

/** The signed-in dashboard: the owner's clients, the totals, and the New button. */
export function ClientDashboard() {
  const list = useClientList();
  return (
    <div className="row g-4">
      <div className="col-12 col-md-9 order-2 order-md-1">
        {list.isPending ? (
          <PageLoading />
        ) : list.isError ? (
          <PageLoadError error={list.error} onRetry={() => void list.refetch()} />
        ) : (
          <>
            <TotalOwed totals={list.data.totals} converted={list.data.converted} />
            <ClientTable clients={list.data.clients} />
          </>
        )}
      </div>
      <aside className="col-12 col-md-3 order-1 order-md-2">
        <Link to="/client/add" className="btn btn-success w-100">
          New
        </Link>
      </aside>
    </div>
  );
}
