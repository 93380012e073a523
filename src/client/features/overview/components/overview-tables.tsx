import { currencyLabel } from '../../../../shared/money.ts';
import type { Overview } from '../../../../shared/schemas/overview.ts';
import { useAgeingBuckets } from '../../../components/ageing-buckets.ts';
import { useI18n } from '../../../i18n/use-i18n.ts';
import { monthLabel } from './overview-figures.ts';

/** The month-end totals of every currency, as a table. */
export function HistoryTable({ overview }: { overview: Overview }) {
  const { t, format } = useI18n();
  const { months, series } = overview.history;
  const current = months.length - 1;
  return (
    // Focusable, so a keyboard can scroll it sideways on a narrow screen.
    <div
      className="table-responsive"
      tabIndex={0}
      role="region"
      aria-label={t('overview.charts.history-table')}
    >
      <table className="table table-sm small text-nowrap">
        <caption className="caption-top">{t('overview.charts.history-table')}</caption>
        <thead>
          <tr>
            <th scope="col">{t('overview.charts.month-end')}</th>
            {series.map(({ currency }) => (
              <th key={currency} scope="col" className="text-end">
                {currencyLabel[currency]}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {months.map((month, index) => (
            <tr key={month}>
              <th scope="row">
                {index === current
                  ? t('overview.charts.to-date', { month: monthLabel(month, format.intlLocale) })
                  : monthLabel(month, format.intlLocale)}
              </th>
              {series.map(({ currency, totals }) => (
                <td key={currency} className="text-end">
                  {format.money(BigInt(totals[index] ?? '0'), currency)}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** What is owed by how late it is, of every currency, as a table. */
export function AgeingTable({ overview }: { overview: Overview }) {
  const { t, format } = useI18n();
  const buckets = useAgeingBuckets();
  return (
    <div
      className="table-responsive"
      tabIndex={0}
      role="region"
      aria-label={t('dashboard.ageing.label')}
    >
      <table className="table table-sm small text-nowrap">
        <caption className="caption-top">
          {t('dashboard.ageing.caption', { date: format.day(overview.asOf) })}
        </caption>
        <thead>
          <tr>
            <th scope="col">{t('overview.overdue')}</th>
            {overview.currencies.map(({ currency }) => (
              <th key={currency} scope="col" className="text-end">
                {currencyLabel[currency]}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {buckets.map(({ name, label }) => (
            <tr key={name}>
              <th scope="row">{label}</th>
              {overview.currencies.map(({ currency, buckets }) => (
                <td key={currency} className="text-end">
                  {format.money(BigInt(buckets[name]), currency)}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
