import { useEffect, useRef, type ReactNode } from 'react';
import { Link } from 'react-router';
import { Download, Landmark, Plus, Upload } from 'lucide-react';
import { currencies, currencyLabel, type Currency } from '../../../../shared/money.ts';
import type { ClientSort } from '../../../../shared/client-list.ts';
import { PageLoadError, PageLoading } from '../../../components/page-status.tsx';
import { useI18n } from '../../../i18n/use-i18n.ts';
import { useClientList } from '../api/queries.ts';
import { localToday } from '../../../../shared/dates.ts';
import { ClientTable } from './client-table.tsx';
import { FilterCheckbox, SearchBox, useChosen, useListParams } from './list-controls.tsx';
import { TotalOwed } from './total-owed.tsx';
import { apiAddress } from '../../../lib/api-client.ts';
import { apiRoutes } from '../../../../shared/api-routes.ts';
import { useBookAccess } from '../../../lib/session-query.ts';

/** Whether a search or filter narrows the list (the summaries that do not follow say so). */
export function useListFiltered(): boolean {
  const [params] = useListParams();
  return Boolean(params.q || params.currency || params.owes || params.overdue);
}

/**
 * The signed-in dashboard's list: the owner's clients a page at a time, its search, filters and
 * sort, the totals, and the New button; `ageing` (the overview's table of how late what is owed
 * is) is placed under it by the dashboard page.
 */
export function ClientDashboard({
  mainCurrency,
  ageing,
}: {
  mainCurrency: Currency;
  ageing: ReactNode;
}) {
  const { t, format } = useI18n();
  const can = useBookAccess();
  const [params, update] = useListParams();
  const list = useClientList(params);
  const [currencyShown, showCurrency] = useChosen(params.currency ?? '');
  const sentinel = useRef<HTMLDivElement>(null);
  const filtered = Boolean(params.q || params.currency || params.owes || params.overdue);
  const { hasNextPage, isFetchingNextPage, fetchNextPage } = list;

  // Scrolling near the end loads the next page; the rows already shown stay put.
  useEffect(() => {
    const element = sentinel.current;
    if (!element || !hasNextPage) return;
    const observer = new IntersectionObserver((entries) => {
      if (entries.some((entry) => entry.isIntersecting) && !isFetchingNextPage)
        void fetchNextPage();
    });
    observer.observe(element);
    return () => observer.disconnect();
  }, [hasNextPage, isFetchingNextPage, fetchNextPage]);

  const onSort = (sort: ClientSort) => {
    const current = params.sort ?? 'name';
    const dir = current === sort && params.dir !== 'desc' ? 'desc' : undefined;
    update({ sort: sort === 'name' ? undefined : sort, dir });
  };

  const firstPage = list.data?.pages[0];
  const clients = list.data?.pages.flatMap((page) => page.clients) ?? [];

  return (
    <>
      {/* The actions come before the search for a keyboard, and the list right after the search:
        what the owner opens the app for is a few Tabs and no scrolling away. */}
      <div className="d-flex flex-wrap align-items-center justify-content-between gap-2 mb-2">
        <h1 className="mb-0">{t('dashboard.title')}</h1>
        <div className="d-flex flex-wrap gap-2">
          {can(apiRoutes.addClient.access) && (
            <Link
              to="/client/add"
              className="btn btn-success d-inline-flex align-items-center justify-content-center gap-1 px-4"
            >
              <Plus size={18} className="icon" aria-hidden />
              {t('dashboard.new')}
            </Link>
          )}
          {can(apiRoutes.exportClientsCsv.access) && (
            <a
              className="btn btn-outline-secondary btn-sm d-inline-flex align-items-center"
              href={apiAddress(apiRoutes.exportClientsCsv, {
                query: {
                  q: params.q,
                  currency: params.currency,
                  owes: params.owes,
                  overdue: params.overdue,
                },
              })}
              download
            >
              <Download size={14} className="icon me-1" aria-hidden />
              {filtered ? t('dashboard.export-filtered') : t('dashboard.export')}
            </a>
          )}
          {can(apiRoutes.importClients.access) && (
            <Link
              to="/client/import"
              className="btn btn-outline-secondary btn-sm d-inline-flex align-items-center"
            >
              <Upload size={14} className="icon me-1" aria-hidden />
              {t('dashboard.import')}
            </Link>
          )}
          {can(apiRoutes.bankPreview.access) && (
            <Link
              to="/bank"
              className="btn btn-outline-secondary btn-sm d-inline-flex align-items-center"
            >
              <Landmark size={14} className="icon me-1" aria-hidden />
              {t('dashboard.bank')}
            </Link>
          )}
        </div>
      </div>
      <div className="row g-2 mb-2" role="search">
        <div className="col-12 col-md-6">
          <SearchBox key={params.q ?? ''} value={params.q ?? ''} onSearch={(q) => update({ q })} />
        </div>
        <div className="col-6 col-md-3">
          <select
            className="form-select"
            aria-label={t('dashboard.currency')}
            value={currencyShown}
            onChange={(event) => {
              showCurrency(event.target.value);
              update({ currency: event.target.value || undefined });
            }}
          >
            <option value="">{t('dashboard.all-currencies')}</option>
            {currencies.map((currency) => (
              <option key={currency} value={currency}>
                {currencyLabel[currency]}
              </option>
            ))}
          </select>
        </div>
        <div className="col-6 col-md-3 d-flex flex-column justify-content-center">
          <FilterCheckbox
            label={t('dashboard.filter.owes')}
            checked={params.owes === 'true'}
            onChange={(checked) => update({ owes: checked ? 'true' : undefined })}
          />
          <FilterCheckbox
            label={t('dashboard.filter.overdue')}
            checked={params.overdue === 'true'}
            onChange={(checked) => update({ overdue: checked ? 'true' : undefined })}
          />
        </div>
      </div>
      {list.isPending ? (
        <PageLoading />
      ) : list.isError ? (
        <PageLoadError error={list.error} onRetry={() => void list.refetch()} />
      ) : (
        <>
          <div className="summary-strip mb-2" data-testid="summary-strip">
            <TotalOwed
              totals={firstPage?.totals ?? []}
              converted={firstPage?.converted ?? null}
              mainCurrency={mainCurrency}
            />
            {filtered && (
              <p className="small text-body-secondary mb-0" role="status">
                {t('dashboard.filter.totals', { count: firstPage?.count ?? 0 })}{' '}
                <Link to="/">{t('dashboard.filter.clear')}</Link>
              </p>
            )}
          </div>
          {clients.length === 0 && filtered ? (
            <p className="text-body-secondary">{t('dashboard.filter.no-match')}</p>
          ) : (
            <ClientTable
              clients={clients}
              asOf={firstPage?.asOf ?? localToday()}
              sort={params.sort ?? 'name'}
              dir={params.dir ?? 'asc'}
              onSort={onSort}
            />
          )}
          {clients.length === 0 && !filtered && (
            <p className="text-body-secondary" data-testid="first-clients">
              {t('dashboard.first-clients', {
                new: t('dashboard.new'),
                import: t('dashboard.import'),
              })}
            </p>
          )}
          <div ref={sentinel} />
          {hasNextPage && (
            <div className="text-center">
              <button
                type="button"
                className="btn btn-outline-secondary btn-sm"
                disabled={isFetchingNextPage}
                onClick={() => void fetchNextPage()}
              >
                {isFetchingNextPage
                  ? t('common.loading')
                  : t('dashboard.load-more', {
                      shown: format.number(clients.length),
                      count: format.number(firstPage?.count ?? 0),
                    })}
              </button>
            </div>
          )}
          {ageing}
        </>
      )}
    </>
  );
}
