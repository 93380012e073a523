import { Fragment } from 'react';
import { formatMoney } from '../../../../shared/money.ts';
import type { ClientList, CurrencyTotal } from '../../../../shared/schemas/clients.ts';

function approximateUsd(cents: bigint): string {
  const magnitude = formatMoney(cents < 0n ? -cents : cents, 'USD');
  return `≈ ${cents < 0n ? '-' : ''}US${magnitude}`;
}

/** "Total Owed: " with one exact total per currency present; different currencies are never added. */
export function TotalOwed({
  totals,
  converted,
}: {
  totals: CurrencyTotal[];
  converted: ClientList['converted'];
}) {
  return (
    <h2 className="h5 mb-3">
      Total Owed:{' '}
      {totals.length === 0 ? (
        <span>{formatMoney(0, 'USD')}</span>
      ) : (
        // Each amount stays whole, but a phone may break the line between them.
        totals.map(({ currency, total }, index) => (
          <Fragment key={currency}>
            {index > 0 && <span aria-hidden="true"> · </span>}
            <span className="text-nowrap" data-currency={currency}>
              {formatMoney(BigInt(total), currency)}
            </span>
          </Fragment>
        ))
      )}
      {converted && (
        <small
          className="d-block d-sm-inline text-body-secondary fw-normal ms-sm-2"
          data-testid="converted-total"
        >
          {approximateUsd(BigInt(converted.usdTotal))} at rates of {converted.ratesDate}
        </small>
      )}
    </h2>
  );
}
