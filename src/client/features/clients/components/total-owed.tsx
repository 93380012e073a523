import { Fragment } from 'react';
import type { Currency } from '../../../../shared/money.ts';
import type { ClientList, CurrencyTotal } from '../../../../shared/schemas/clients.ts';
import { dayText, usdEstimate } from '../../../components/formats.ts';
import { useI18n } from '../../../i18n/use-i18n.ts';

/**
 * "Total Owed: " with one exact total per currency present; different currencies are never added.
 * It nets credits off (the sum of all balances), which the line under it says, so it cannot be
 * mistaken for the overview's "Owed to you".
 */
export function TotalOwed({
  totals,
  converted,
  mainCurrency,
}: {
  totals: CurrencyTotal[];
  converted: ClientList['converted'];
  /** What a total of nothing is shown in: the business's own currency. */
  mainCurrency: Currency;
}) {
  const { t, format } = useI18n();
  return (
    <>
      <h2 className="h5 mb-0 tabular" data-testid="total-owed">
        {t('dashboard.total-owed')}{' '}
        {totals.length === 0 ? (
          <span data-currency={mainCurrency}>{format.money(0, mainCurrency)}</span>
        ) : (
          // Each amount stays whole, but a phone may break the line between them.
          totals.map(({ currency, total }, index) => (
            <Fragment key={currency}>
              {index > 0 && <span aria-hidden="true"> · </span>}
              <span className="text-nowrap" data-currency={currency}>
                {format.money(BigInt(total), currency)}
              </span>
            </Fragment>
          ))
        )}
        {converted && (
          <small
            className="d-block d-sm-inline text-body-secondary fw-normal ms-sm-2"
            data-testid="converted-total"
          >
            {t('dashboard.converted', {
              amount: usdEstimate(BigInt(converted.usdTotal), format),
              date: dayText(converted.ratesDate, format),
            })}
          </small>
        )}
      </h2>
      <p className="small text-body-secondary mb-0">{t('dashboard.total-owed-meaning')}</p>
    </>
  );
}
