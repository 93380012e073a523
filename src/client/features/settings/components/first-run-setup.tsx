import { useEffect, useId, useState, type ReactNode } from 'react';
import { useForm } from 'react-hook-form';
import { currencies, currencyLabel, type Currency } from '../../../../shared/money.ts';
import type { FirstRun } from '../../../../shared/schemas/first-run.ts';
import {
  businessAddressMaxLength,
  businessNameMaxLength,
  paymentDetailsMaxLength,
  setupSchema,
  taxIdMaxLength,
} from '../../../../shared/schemas/settings.ts';
import type { Locale } from '../../../../shared/locales.ts';
import { useFlash } from '../../../components/flash.tsx';
import { messagesByField } from '../../../components/form-field.tsx';
import { useI18n } from '../../../i18n/use-i18n.ts';
import { ApiError } from '../../../lib/api-client.ts';
import { useFinishSetup } from '../api/finish-setup.ts';
import { AccountLanguage } from './account-language.tsx';

/** Until the owner picks one, the currency of the language the app speaks is the likeliest. */
const currencyOfLocale: Partial<Record<Locale, Currency>> = { ko: 'KRW', ms: 'MYR' };

interface SetupValues {
  businessName: string;
  businessAddress: string;
  taxId: string;
  mainCurrency: Currency;
  paymentDetails: string;
}

type FieldErrors = Partial<Record<keyof SetupValues, string>>;

/**
 * The first run: the business's name, address and tax id (printed on its statements), main
 * currency, language and how clients pay, in one short form that can be skipped. Either way it is not offered again, on any device.
 */
export function FirstRunSetup({
  mainCurrency,
  onFinished,
  reminders,
  saveReminders,
}: {
  /** The currency kept with the account (US dollars until one is chosen). */
  mainCurrency: Currency;
  onFinished: (firstRun: FirstRun) => Promise<void>;
  /** The reminders feature's question, placed by the page (a feature never imports another). */
  reminders?: ReactNode;
  /** Keeps the answer to `reminders` when the form is saved (not when it is skipped). */
  saveReminders?: () => Promise<void>;
}) {
  const { t, message, locale } = useI18n();
  const showFlash = useFlash();
  const finish = useFinishSetup();
  const ids = {
    name: useId(),
    address: useId(),
    addressHelp: useId(),
    taxId: useId(),
    taxIdHelp: useId(),
    currency: useId(),
    payment: useId(),
    paymentHelp: useId(),
  };
  const suggested = mainCurrency === 'USD' ? (currencyOfLocale[locale] ?? 'USD') : mainCurrency;
  const { register, handleSubmit, setValue, formState } = useForm<SetupValues>({
    defaultValues: {
      businessName: '',
      businessAddress: '',
      taxId: '',
      mainCurrency: suggested,
      paymentDetails: '',
    },
  });
  // A language chosen above the currency suggests its currency, until the owner picks one.
  const currencyPicked = formState.dirtyFields.mainCurrency === true;
  useEffect(() => {
    if (!currencyPicked) setValue('mainCurrency', suggested);
  }, [currencyPicked, setValue, suggested]);
  const [errors, setErrors] = useState<FieldErrors>({});

  const send = async (setup: Parameters<typeof finish.mutateAsync>[0]) => {
    try {
      if (setup.outcome === 'done') await saveReminders?.();
      await onFinished(await finish.mutateAsync(setup));
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      showFlash(t('setup.failed'), 'danger');
    }
  };

  const submit = handleSubmit(async (values) => {
    const parsed = setupSchema.safeParse({ outcome: 'done', ...values });
    if (!parsed.success) {
      setErrors(messagesByField(parsed.error.issues, message));
      return;
    }
    setErrors({});
    await send(parsed.data);
  });

  return (
    <div className="row justify-content-center">
      <div className="col-12 col-md-10 col-lg-7">
        <div className="card">
          <div className="card-body">
            <h1 className="h3">{t('setup.title')}</h1>
            <p className="text-body-secondary">{t('setup.intro')}</p>
            <form noValidate onSubmit={(event) => void submit(event)}>
              <div className="mb-3">
                <label htmlFor={ids.name} className="form-label">
                  {t('setup.business-name')}
                </label>
                <input
                  id={ids.name}
                  className={`form-control${errors.businessName ? ' is-invalid' : ''}`}
                  maxLength={businessNameMaxLength}
                  autoComplete="organization"
                  {...register('businessName')}
                />
                <div className="form-text">{t('setup.business-name-help')}</div>
                {errors.businessName && (
                  <div className="invalid-feedback">{errors.businessName}</div>
                )}
              </div>
              <div className="mb-3">
                <label htmlFor={ids.address} className="form-label">
                  {t('setup.business-address')}
                </label>
                <textarea
                  id={ids.address}
                  rows={3}
                  className={`form-control${errors.businessAddress ? ' is-invalid' : ''}`}
                  maxLength={businessAddressMaxLength}
                  aria-describedby={ids.addressHelp}
                  autoComplete="street-address"
                  {...register('businessAddress')}
                />
                <div id={ids.addressHelp} className="form-text">
                  {t('settings.business-address-help')}
                </div>
                {errors.businessAddress && (
                  <div className="invalid-feedback">{errors.businessAddress}</div>
                )}
              </div>
              <div className="mb-3">
                <label htmlFor={ids.taxId} className="form-label">
                  {t('setup.tax-id')}
                </label>
                <input
                  id={ids.taxId}
                  className={`form-control${errors.taxId ? ' is-invalid' : ''}`}
                  maxLength={taxIdMaxLength}
                  aria-describedby={ids.taxIdHelp}
                  autoComplete="off"
                  {...register('taxId')}
                />
                <div id={ids.taxIdHelp} className="form-text">
                  {t('settings.tax-id-help')}
                </div>
                {errors.taxId && <div className="invalid-feedback">{errors.taxId}</div>}
              </div>
              <div className="mb-3">
                <label htmlFor={ids.currency} className="form-label">
                  {t('settings.main-currency')}
                </label>
                <select
                  id={ids.currency}
                  className={`form-select${errors.mainCurrency ? ' is-invalid' : ''}`}
                  {...register('mainCurrency')}
                >
                  {currencies.map((option) => (
                    <option key={option} value={option}>
                      {currencyLabel[option]}
                    </option>
                  ))}
                </select>
                <div className="form-text">{t('settings.main-currency-help')}</div>
                {errors.mainCurrency && (
                  <div className="invalid-feedback">{errors.mainCurrency}</div>
                )}
              </div>
              <AccountLanguage />
              <div className="mb-4">
                <label htmlFor={ids.payment} className="form-label">
                  {t('setup.payment-details')}
                </label>
                <textarea
                  id={ids.payment}
                  rows={3}
                  className={`form-control${errors.paymentDetails ? ' is-invalid' : ''}`}
                  maxLength={paymentDetailsMaxLength}
                  aria-describedby={ids.paymentHelp}
                  {...register('paymentDetails')}
                />
                <div id={ids.paymentHelp} className="form-text">
                  {t('settings.payment-details-help')}
                </div>
                {errors.paymentDetails && (
                  <div className="invalid-feedback">{errors.paymentDetails}</div>
                )}
              </div>
              {reminders}
              <div className="d-flex flex-wrap gap-2">
                <button
                  type="submit"
                  className="btn btn-primary"
                  disabled={finish.isPending || formState.isSubmitting}
                >
                  {t('setup.save')}
                </button>
                <button
                  type="button"
                  className="btn btn-outline-secondary"
                  disabled={finish.isPending}
                  onClick={() => void send({ outcome: 'skipped' })}
                >
                  {t('setup.skip')}
                </button>
              </div>
              <p className="form-text mb-0 mt-3">{t('setup.later')}</p>
            </form>
          </div>
        </div>
      </div>
    </div>
  );
}
