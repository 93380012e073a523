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
  return (
    <ScrollRegion label={t('dashboard.ageing.label')} className="mt-3 mb-3">
      <table className="table table-sm small mb-0 text-nowrap tabular" data-testid="ageing">
        <caption className="caption-top text-body-secondary py-1">
          {t(filtered ? 'dashboard.ageing.caption-unfiltered' : 'dashboard.ageing.caption', {
            // The day as every language writes it ("Dec 7, 2026"), never the ISO form.
            date: format.day(data.asOf),
          })}
        </caption>
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
  );
}
