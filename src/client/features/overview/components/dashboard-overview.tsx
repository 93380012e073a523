import { lazy, Suspense, useId } from 'react';
import { loadChunk } from '../../../lib/load-chunk.ts';
import { Link } from 'react-router';
import { currencyLabel, type Currency } from '../../../../shared/money.ts';
import type { Overview } from '../../../../shared/schemas/overview.ts';
import { displayName } from '../../../../shared/names.ts';
import { dayText, usdEstimate } from '../../../components/formats.ts';
import { PageLoadError } from '../../../components/page-status.tsx';
import { useI18n } from '../../../i18n/use-i18n.ts';
import { useOverview } from '../api/overview.ts';

// The chart library is the largest part of the dashboard's code: it loads on its own, after the
// figures, so the first page stays small and the figures do not wait for it.
const OverviewCharts = lazy(async () => ({
  default: (await loadChunk(() => import('./overview-charts.tsx'))).OverviewCharts,
}));

function Figure({ term, children }: { term: string; children: React.ReactNode }) {
  return (
    <div className="d-flex flex-wrap justify-content-between column-gap-3">
      <dt className="fw-normal text-body-secondary">{term}</dt>
      <dd className="mb-1 text-end text-break">{children}</dd>
    </div>
  );
}

/** The card's "Total Owed": what clients owe less credits held, the list's "Total Owed:" line. */
export function totalOwed(row: Pick<Overview['currencies'][number], 'owed' | 'credits'>): bigint {
  return BigInt(row.owed) - BigInt(row.credits);
}

function CurrencyCard({ row }: { row: Overview['currencies'][number] }) {
  const { t, format } = useI18n();
  const { currency } = row;
  const money = (minor: string) => format.money(BigInt(minor), currency);
  return (
    <div className="col-12 col-sm-6 col-xl">
      <section className="card h-100" data-testid={`overview-${currency}`}>
        <div className="card-body">
          <h3 className="h6 card-title">{currencyLabel[currency]}</h3>
          <dl className="mb-0">
            {/* Outside the list SPEC.md's red-or-green rule gives way to meaning: owed and not
              yet due is neutral, overdue red, credits green. */}
            <Figure term={t('overview.owed-to-you')}>
              <span className="fw-semibold">{money(row.owed)}</span>
            </Figure>
            <Figure term={t('overview.clients-owing')}>{format.number(row.clientsOwing)}</Figure>
            <Figure term={t('overview.overdue')}>
              <span className={BigInt(row.overdue) > 0n ? 'text-owed' : undefined}>
                {money(row.overdue)}
              </span>
              {row.clientsOverdue > 0 && (
                <>
                  {' '}
                  <small className="d-block text-body-secondary">
                    {t('overview.client-count', { count: row.clientsOverdue })}
                  </small>
                </>
              )}
            </Figure>
            <Figure term={t('overview.credits-held')}>
              <span className={BigInt(row.credits) > 0n ? 'text-credit' : undefined}>
                {money(row.credits)}
              </span>
              {row.clientsInCredit > 0 && (
                <>
                  {' '}
                  <small className="d-block text-body-secondary">
                    {t('overview.client-count', { count: row.clientsInCredit })}
                  </small>
                </>
              )}
            </Figure>
            <Figure term={t('overview.total-owed')}>{money(totalOwed(row).toString())}</Figure>
          </dl>
        </div>
      </section>
    </div>
  );
}

function DebtorList({ debtors }: { debtors: Overview['largestDebtors']['debtors'] }) {
  const { format } = useI18n();
  return (
    <ol className="list-unstyled mb-0">
      {debtors.map((debtor) => (
        <li
          key={debtor.id}
          className="d-flex flex-wrap justify-content-between column-gap-3 py-1 border-bottom"
        >
          <Link to={`/client/${debtor.id}`} className="text-break">
            {displayName(debtor)}
          </Link>
          <span className="text-end">
            {/* Owed, not necessarily overdue: neutral, as on the cards. */}
            <span className="fw-semibold">{format.money(debtor.balance, debtor.currency)}</span>
            {debtor.usdValue !== null && debtor.currency !== 'USD' && (
              <small className="d-block text-body-secondary">
                {usdEstimate(BigInt(debtor.usdValue), format)}
              </small>
            )}
          </span>
        </li>
      ))}
    </ol>
  );
}

function LargestDebtors({ largest }: { largest: Overview['largestDebtors'] }) {
  const { t, format } = useI18n();
  const headingId = useId();
  const currenciesShown = [...new Set(largest.debtors.map((debtor) => debtor.currency))];
  return (
    <section className="card" aria-labelledby={headingId} data-testid="largest-debtors">
      <div className="card-body">
        <h3 id={headingId} className="h6 card-title">
          {t('overview.largest.title')}
        </h3>
        {largest.debtors.length === 0 ? (
          <p className="text-body-secondary mb-0">{t('overview.largest.nobody')}</p>
        ) : largest.ranking === 'converted' ? (
          <>
            <p className="small text-body-secondary">
              {largest.ratesDate
                ? t('overview.largest.converted', { date: dayText(largest.ratesDate, format) })
                : t('overview.largest.converted-undated')}
            </p>
            <DebtorList debtors={largest.debtors} />
          </>
        ) : (
          <>
            {currenciesShown.length > 1 && (
              <p className="small text-body-secondary">{t('overview.largest.per-currency')}</p>
            )}
            {currenciesShown.map((currency: Currency) => (
              <div key={currency} className="mb-2">
                {currenciesShown.length > 1 && (
                  <h4 className="small fw-semibold mb-1">{currencyLabel[currency]}</h4>
                )}
                <DebtorList
                  debtors={largest.debtors.filter((debtor) => debtor.currency === currency)}
                />
              </div>
            ))}
          </>
        )}
      </div>
    </section>
  );
}

/**
 * The charts' frame while their code loads: the same card, heading, button row and two chart
 * boxes, so the charts arriving do not push the client list down (a click aimed at the list
 * would land elsewhere).
 */
function ChartsPlaceholder() {
  const { t } = useI18n();
  const box = (
    <>
      <p className="small mb-1">{'\u00a0'}</p>
      <div style={{ height: '14rem' }} />
    </>
  );
  return (
    <section className="card" aria-busy="true" data-testid="overview-charts-placeholder">
      <div className="card-body">
        <div className="d-flex flex-wrap align-items-center justify-content-between gap-2 mb-2">
          <h3 className="h6 card-title mb-0">{t('overview.charts.title')}</h3>
          <span className="btn btn-outline-secondary btn-sm invisible" aria-hidden="true">
            {t('overview.charts.as-table')}
          </span>
        </div>
        <div className="row g-3">
          <div className="col-12 col-md-7">{box}</div>
          <div className="col-12 col-md-5">{box}</div>
        </div>
      </div>
    </section>
  );
}

/**
 * The top of the signed-in dashboard: per currency what is owed, overdue and held as credit,
 * the largest debtors, and the pictures of the total over time and of the ageing.
 */
export function DashboardOverview({ filtered }: { filtered: boolean }) {
  const { t } = useI18n();
  const overview = useOverview();
  const headingId = useId();
  if (overview.isError && !overview.data)
    return <PageLoadError error={overview.error} onRetry={() => void overview.refetch()} />;
  // While it loads, the list below shows its own spinner; with no client there is nothing to sum.
  if (!overview.data || overview.data.currencies.length === 0) return null;
  const { data } = overview;
  return (
    <section className="mt-4 mb-4" aria-labelledby={headingId} data-testid="overview">
      <h2 id={headingId} className="h5 mb-2">
        {t('overview.title')}
      </h2>
      {filtered && (
        <p className="small text-body-secondary" data-testid="overview-not-filtered">
          {t('overview.not-filtered')}
        </p>
      )}
      <div className="row g-3 mb-3">
        {data.currencies.map((row) => (
          <CurrencyCard key={row.currency} row={row} />
        ))}
      </div>
      {/* Each card as tall as its content: a long list of debtors leaves no empty chart box. */}
      <div className="row g-3 align-items-start">
        <div className="col-12 col-lg-4">
          <LargestDebtors largest={data.largestDebtors} />
        </div>
        <div className="col-12 col-lg-8">
          <Suspense fallback={<ChartsPlaceholder />}>
            <OverviewCharts overview={data} />
          </Suspense>
        </div>
      </div>
    </section>
  );
}
