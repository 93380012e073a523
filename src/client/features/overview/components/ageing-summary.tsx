import { currencyLabel } from '../../../../shared/money.ts';
import { useAgeingBuckets } from '../../../components/ageing-buckets.ts';
import { useI18n } from '../../../i18n/use-i18n.ts';
import { useAgeing } from '../api/overview.ts';
import { ScrollRegion } from '../../../components/scroll-region.tsx';

/**
 * How long what is owed has been overdue, per currency: the buckets add up to what the clients
 * with a balance above 0 owe. Payments settle the oldest amounts first. It always covers all
 * clients, so under a search or filter its caption says so.
 */
export function AgeingSummary({ filtered }: { filtered: boolean }) {
  const { t, format } = useI18n();
  const buckets = useAgeingBuckets();
  const ageing = useAgeing();
  const data = ageing.data;
  if (!data || data.currencies.length === 0) return null;
  const caption = t(filtered ? 'dashboard.ageing.caption-unfiltered' : 'dashboard.ageing.caption', {
    // The day as every language writes it ("Dec 7, 2026"), never the ISO form.
    date: format.day(data.asOf),
  });
  return (
    <>
      {/* Six columns do not fit a phone: there each currency's buckets are a column of rows. */}
      <section className="d-sm-none mt-3 mb-3" aria-label={t('dashboard.ageing.label')}>
        <p className="small text-body-secondary mb-1">{caption}</p>
        {data.currencies.map((row) => (
          <table
            key={row.currency}
            className="table table-sm small mb-2 tabular"
            aria-label={`${t('dashboard.ageing.label')}, ${currencyLabel[row.currency]}`}
          >
            <tbody>
              <tr className="fw-semibold">
                <th scope="row">{t('dashboard.ageing.owed')}</th>
                <td className="text-end text-nowrap">
                  {format.money(BigInt(row.owed), row.currency)}
                </td>
              </tr>
              {buckets.map(({ name, label }) => (
                <tr key={name}>
                  <th scope="row" className="fw-normal">
                    {label}
                  </th>
                  <td className="text-end text-nowrap">
                    {format.money(BigInt(row.buckets[name]), row.currency)}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        ))}
      </section>
      <ScrollRegion label={t('dashboard.ageing.label')} className="d-none d-sm-block mt-3 mb-3">
        <table className="table table-sm small mb-0 text-nowrap tabular" data-testid="ageing">
          <caption className="caption-top text-body-secondary py-1">{caption}</caption>
          <thead>
            <tr>
              <th scope="col">{t('dashboard.ageing.owed')}</th>
              {buckets.map(({ name, label }) => (
                <th key={name} scope="col" className="text-end">
                  {label}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {data.currencies.map((row) => (
              <tr key={row.currency}>
                <th scope="row">{format.money(BigInt(row.owed), row.currency)}</th>
                {buckets.map(({ name }) => (
                  <td key={name} className="text-end">
                    {format.money(BigInt(row.buckets[name]), row.currency)}
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </ScrollRegion>
    </>
  );
}
