import type { PaymentMethod } from '../../shared/schemas/ledger.ts';
import type { useI18n } from '../i18n/use-i18n.ts';

type Translate = ReturnType<typeof useI18n>['t'];

/** What each payment method is called: on the form's list and on a ledger line. */
export function paymentMethodTexts(t: Translate): Record<PaymentMethod, string> {
  return {
    cash: t('clients.method.cash'),
    bank_transfer: t('clients.method.bank_transfer'),
    card: t('clients.method.card'),
    cheque: t('clients.method.cheque'),
    other: t('clients.method.other'),
  };
}
