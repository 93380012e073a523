import { formatMoney } from '../../../../shared/money.ts';
import type { CurrencyTotal } from '../../../../shared/schemas/clients.ts';

/** "Total Owed: " with one exact total per currency present; different currencies are never added. */
export function TotalOwed({ totals }: { totals: CurrencyTotal[] }) {
  return (
    <h2 className="h5 mb-3">
      Total Owed:{' '}
      {totals.length === 0 ? (
        <span>{formatMoney(0, 'USD')}</span>
      ) : (
        totals.map(({ currency, total }, index) => (
          <span key={currency} className="text-nowrap">
            {index > 0 && <span aria-hidden="true"> · </span>}
            <span data-currency={currency}>{formatMoney(BigInt(total), currency)}</span>
          </span>
        ))
      )}
    </h2>
  );
}
