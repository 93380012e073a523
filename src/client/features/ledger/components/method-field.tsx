import { useId } from 'react';
import type { UseFormRegisterReturn } from 'react-hook-form';
import { paymentMethods } from '../../../../shared/schemas/ledger.ts';
import { paymentMethodTexts } from '../../../components/payment-method-texts.ts';
import { useI18n } from '../../../i18n/use-i18n.ts';

/**
 * How a payment came: a list of the methods (a bank transfer chosen to start with, see
 * `defaultPaymentMethod`), which the keyboard opens and changes as any select.
 */
export function MethodField({
  registration,
  className,
}: {
  registration: UseFormRegisterReturn;
  className: string;
}) {
  const id = useId();
  const { t } = useI18n();
  const names = paymentMethodTexts(t);
  return (
    <div className={className}>
      <label htmlFor={id} className="form-label">
        {t('clients.entry.method')}
      </label>
      <select id={id} className="form-select" {...registration}>
        {paymentMethods.map((method) => (
          <option key={method} value={method}>
            {names[method]}
          </option>
        ))}
      </select>
    </div>
  );
}
