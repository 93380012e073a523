import type { Currency } from '../../shared/money.ts';
import { useI18n } from '../i18n/use-i18n.ts';

interface BalanceAmountProps {
  /** The balance in minor units; more than 0 means the client owes it. */
  minor: number | bigint;
  currency: Currency;
  /** A test id for the amount alone (its text stays exactly the formatted money). */
  testId?: string;
  /** Where the word goes: under the amount (narrow table cells) or beside it. */
  layout?: 'stacked' | 'inline';
  className?: string;
}

/**
 * A balance as the owner reads it everywhere: red when the client owes it, green otherwise, and
 * a word that says which, so the colour is never the only sign (WCAG 1.4.1).
 */
export function BalanceAmount({
  minor,
  currency,
  testId,
  layout = 'inline',
  className = '',
}: BalanceAmountProps) {
  const { t, format } = useI18n();
  const owes = minor > 0;
  const state = owes ? 'owes' : minor < 0 ? 'credit' : 'settled';
  return (
    <span className={`${owes ? 'text-owed' : 'text-credit'} ${className}`} data-balance={state}>
      <span data-testid={testId}>{format.money(minor, currency)}</span>{' '}
      <span className={`balance-label ${layout === 'stacked' ? 'd-block' : 'ms-1'}`}>
        {owes
          ? t('common.balance.owes')
          : state === 'credit'
            ? t('common.balance.credit')
            : t('common.balance.settled')}
      </span>
    </span>
  );
}
