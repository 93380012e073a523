import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { currencies, currencyLabel, type Currency } from '../../../../shared/money.ts';
import {
  businessAddressMaxLength,
  paymentDetailsMaxLength,
  businessNameMaxLength,
  businessSchema,
  taxIdMaxLength,
  type Settings,
} from '../../../../shared/schemas/settings.ts';
import { messagesByField } from '../../../components/form-field.tsx';
import { useI18n } from '../../../i18n/use-i18n.ts';
import { AccountLanguage } from './account-language.tsx';
import { Section } from '../../../components/settings-card.tsx';
import { useSaveSection } from './settings-section.tsx';

interface BusinessValues {
  name: string;
  address: string;
  paymentDetails: string;
  taxId: string;
  mainCurrency: Currency;
}

/**
 * The business: its name, address, tax id and payment details, its main currency, the language.
 */
export function BusinessSection({ business }: { business: Settings['business'] }) {
  const { t, message } = useI18n();
  const saveSection = useSaveSection();
  const [errors, setErrors] = useState<Partial<Record<keyof BusinessValues, string>>>({});
  const { register, handleSubmit, formState } = useForm<BusinessValues>({
    defaultValues: {
      name: business.name,
      address: business.address,
      paymentDetails: business.paymentDetails ?? '',
      taxId: business.taxId ?? '',
      mainCurrency: business.mainCurrency ?? 'USD',
    },
  });
  const submit = handleSubmit(async (values) => {
    const parsed = businessSchema.safeParse(values);
    if (!parsed.success) {
      setErrors(messagesByField(parsed.error.issues, message));
      return;
    }
    setErrors({});
    await saveSection({ business: parsed.data });
  });
  const invalid = (field: keyof BusinessValues) => (errors[field] ? ' is-invalid' : '');
  const feedback = (field: keyof BusinessValues) =>
    errors[field] && <div className="invalid-feedback">{errors[field]}</div>;

  return (
    <Section title={t('settings.business')} help={t('settings.business-help')}>
      <form noValidate onSubmit={(event) => void submit(event)}>
        <div className="mb-3">
          <label htmlFor="business-name" className="form-label">
            {t('settings.business-name')}
          </label>
          <input
            id="business-name"
            className={`form-control${invalid('name')}`}
            maxLength={businessNameMaxLength}
            aria-describedby="business-name-help"
            autoComplete="organization"
            {...register('name')}
          />
          <div id="business-name-help" className="form-text">
            {t('settings.business-name-help')}
          </div>
          {feedback('name')}
        </div>
        <div className="mb-3">
          <label htmlFor="business-address" className="form-label">
            {t('settings.business-address')}
          </label>
          <textarea
            id="business-address"
            rows={3}
            className={`form-control${invalid('address')}`}
            maxLength={businessAddressMaxLength}
            aria-describedby="business-address-help"
            {...register('address')}
          />
          <div id="business-address-help" className="form-text">
            {t('settings.business-address-help')}
          </div>
          {feedback('address')}
        </div>
        <div className="mb-3">
          <label htmlFor="business-tax-id" className="form-label">
            {t('settings.tax-id')}
          </label>
          <input
            id="business-tax-id"
            className={`form-control${invalid('taxId')}`}
            maxLength={taxIdMaxLength}
            aria-describedby="business-tax-id-help"
            autoComplete="off"
            {...register('taxId')}
          />
          <div id="business-tax-id-help" className="form-text">
            {t('settings.tax-id-help')}
          </div>
          {feedback('taxId')}
        </div>
        <div className="mb-3">
          <label htmlFor="payment-details" className="form-label">
            {t('settings.payment-details')}
          </label>
          <textarea
            id="payment-details"
            rows={3}
            className={`form-control${invalid('paymentDetails')}`}
            maxLength={paymentDetailsMaxLength}
            aria-describedby="payment-details-help"
            {...register('paymentDetails')}
          />
          <div id="payment-details-help" className="form-text">
            {t('settings.payment-details-help')}
          </div>
          {feedback('paymentDetails')}
        </div>
        <div className="mb-3">
          <label htmlFor="main-currency" className="form-label">
            {t('settings.main-currency')}
          </label>
          <select
            id="main-currency"
            className={`form-select${invalid('mainCurrency')}`}
            aria-describedby="main-currency-help"
            {...register('mainCurrency')}
          >
            {currencies.map((currency) => (
              <option key={currency} value={currency}>
                {currencyLabel[currency]}
              </option>
            ))}
          </select>
          <div id="main-currency-help" className="form-text">
            {t('settings.main-currency-help')}
          </div>
          {feedback('mainCurrency')}
        </div>
        <button type="submit" className="btn btn-primary" disabled={formState.isSubmitting}>
          {t('settings.save-business')}
        </button>
      </form>
      <hr />
      {/* Apart from the form: choosing a language shows the app in it at once. */}
      <AccountLanguage />
    </Section>
  );
}
