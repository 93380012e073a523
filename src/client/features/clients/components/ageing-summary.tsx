import { formatMoney } from '../../../../shared/money.ts';
import { ageingBucketLabels, type AgeingBucketName } from '../../../../shared/schemas/clients.ts';
import { useAgeing } from '../api/queries.ts';

const bucketNames = Object.keys(ageingBucketLabels) as AgeingBucketName[];

/**
 * How long what is owed has been overdue, per currency: the buckets add up to what the clients
 * with a balance above 0 owe. Payments settle the oldest amounts first.
 */
export function AgeingSummary() {
  const ageing = useAgeing();
  const rows = ageing.data?.currencies ?? [];
  if (rows.length === 0) return null;
  return (
    // It scrolls sideways on a phone: a keyboard must be able to reach and scroll it too.
    <div
      className="table-responsive mb-3 scroll-region"
      role="region"
      aria-label="Ageing of what is owed"
      tabIndex={0}
    >
      <table className="table table-sm small mb-0 text-nowrap" data-testid="ageing">
        <caption className="caption-top text-body-secondary py-1">
          Ageing of what is owed, on {ageing.data?.asOf}
        </caption>
        <thead>
          <tr>
            <th scope="col">Owed</th>
            {bucketNames.map((name) => (
              <th key={name} scope="col" className="text-end">
                {ageingBucketLabels[name]}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={row.currency}>
              <th scope="row">{formatMoney(BigInt(row.owed), row.currency)}</th>
              {bucketNames.map((name) => (
                <td key={name} className="text-end">
                  {formatMoney(BigInt(row.buckets[name]), row.currency)}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
