import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { Link } from 'react-router';
import { currencyLabel } from '../../../../shared/money.ts';
import { localToday } from '../../../../shared/dates.ts';
import {
  businessAddressMaxLength,
  paymentDetailsMaxLength,
  businessNameMaxLength,
  businessSchema,
  exchangeRateSchema,
  rateCurrencies,
  type ExchangeRate,
  type Settings,
} from '../../../../shared/schemas/settings.ts';
import { useFlash } from '../../../components/flash.tsx';
import { apiAddress, ApiError } from '../../../lib/api-client.ts';
import { useI18n } from '../../../i18n/use-i18n.ts';
import { useSaveSettings } from '../api/settings.ts';
import { AccountLanguage } from './account-language.tsx';
import { RestoreAccount } from './restore-account.tsx';
import { apiRoutes } from '../../../../shared/api-routes.ts';

type RateCurrency = ExchangeRate['currency'];

interface SettingsFormValues {
  allowRegistration: boolean;
  disableBalanceOnAdd: boolean;
  disableBalanceOnEdit: boolean;
  rates: Record<RateCurrency, { usdPerUnit: string; date: string }>;
  businessName: string;
  businessAddress: string;
  paymentDetails: string;
}

function toFormValues(settings: Settings): SettingsFormValues {
  const rates = Object.fromEntries(
    rateCurrencies.map((currency) => {
      const rate = settings.rates.find((candidate) => candidate.currency === currency);
      return [currency, { usdPerUnit: rate?.usdPerUnit ?? '', date: rate?.date ?? '' }];
    }),
  ) as SettingsFormValues['rates'];
  return {
    allowRegistration: settings.allowRegistration ?? true,
    disableBalanceOnAdd: settings.preferences.disableBalanceOnAdd,
    disableBalanceOnEdit: settings.preferences.disableBalanceOnEdit,
    rates,
    businessName: settings.business.name,
    businessAddress: settings.business.address,
    paymentDetails: settings.business.paymentDetails ?? '',
  };
}

/**
 * The Settings screen: the account's language, the three switches of the specification and the
 * owner's exchange rates.
 */
export function SettingsForm({ settings }: { settings: Settings }) {
  const { t, message } = useI18n();
  const showFlash = useFlash();
  const save = useSaveSettings();
  const isAdmin = settings.allowRegistration !== null;
  const [rateErrors, setRateErrors] = useState<Partial<Record<RateCurrency, string>>>({});
  const [businessErrors, setBusinessErrors] = useState<{
    name?: string;
    address?: string;
    paymentDetails?: string;
  }>({});
  const { register, handleSubmit, formState } = useForm<SettingsFormValues>({
    defaultValues: toFormValues(settings),
  });

  const submit = handleSubmit(async (values) => {
    const rates: ExchangeRate[] = [];
    const errors: Partial<Record<RateCurrency, string>> = {};
    for (const currency of rateCurrencies) {
      const { usdPerUnit, date } = values.rates[currency];
      if (usdPerUnit.trim() === '' && date.trim() === '') continue;
      const parsed = exchangeRateSchema.safeParse({
        currency,
        usdPerUnit,
        date: date.trim() === '' ? localToday() : date,
      });
      if (parsed.success && parsed.data.date > localToday())
        errors[currency] = t('settings.rate-in-future');
      else if (parsed.success) rates.push(parsed.data);
      else errors[currency] = parsed.error.issues.map((issue) => message(issue.message)).join(' ');
    }
    setRateErrors(errors);
    const business = businessSchema.safeParse({
      name: values.businessName,
      address: values.businessAddress,
      paymentDetails: values.paymentDetails,
    });
    setBusinessErrors(
      business.success
        ? {}
        : Object.fromEntries(
            business.error.issues.map((issue) => [String(issue.path[0]), message(issue.message)]),
          ),
    );
    if (Object.keys(errors).length > 0 || !business.success) return;
    try {
      await save.mutateAsync({
        preferences: {
          disableBalanceOnAdd: values.disableBalanceOnAdd,
          disableBalanceOnEdit: values.disableBalanceOnEdit,
        },
        rates,
        business: business.data,
        ...(isAdmin ? { allowRegistration: values.allowRegistration } : {}),
      });
      showFlash(t('settings.saved'), 'success');
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      showFlash(t('settings.save-failed'), 'danger');
    }
  });

  return (
    <div className="row justify-content-center">
      <div className="col-12 col-lg-8">
        <div className="card">
          <div className="card-header">
            <h1 className="h5 mb-0">{t('settings.title')}</h1>
          </div>
          <div className="card-body">
            <AccountLanguage />
            <form noValidate onSubmit={(event) => void submit(event)}>
              {isAdmin && (
                <div className="form-check mb-2">
                  <input
                    id="allow-registration"
                    type="checkbox"
                    className="form-check-input"
                    // i18n-ignore: a field's name, not shown
                    {...register('allowRegistration')}
                  />
                  <label htmlFor="allow-registration" className="form-check-label">
                    {t('settings.allow-registration')}
                  </label>
                  <div className="form-text">{t('settings.allow-registration-help')}</div>
                </div>
              )}
              <div className="form-check mb-2">
                <input
                  id="disable-on-add"
                  type="checkbox"
                  className="form-check-input"
                  // i18n-ignore: a field's name, not shown
                  {...register('disableBalanceOnAdd')}
                />
                <label htmlFor="disable-on-add" className="form-check-label">
                  {t('settings.disable-balance-on-add')}
                </label>
              </div>
              <div className="form-check mb-4">
                <input
                  id="disable-on-edit"
                  type="checkbox"
                  className="form-check-input"
                  // i18n-ignore: a field's name, not shown
                  {...register('disableBalanceOnEdit')}
                />
                <label htmlFor="disable-on-edit" className="form-check-label">
                  {t('settings.disable-balance-on-edit')}
                </label>
              </div>

              <fieldset className="mb-4">
                <legend className="h6">{t('settings.business')}</legend>
                <p className="form-text mt-0">{t('settings.business-help')}</p>
                <div className="mb-2">
                  <label htmlFor="business-name" className="form-label small mb-1">
                    {t('settings.business-name')}
                  </label>
                  <input
                    id="business-name"
                    className={`form-control${businessErrors.name ? ' is-invalid' : ''}`}
                    maxLength={businessNameMaxLength}
                    // i18n-ignore: a field's name, not shown
                    {...register('businessName')}
                  />
                  {businessErrors.name && (
                    <div className="invalid-feedback">{businessErrors.name}</div>
                  )}
                </div>
                <div className="mb-2">
                  <label htmlFor="business-address" className="form-label small mb-1">
                    {t('settings.business-address')}
                  </label>
                  <textarea
                    id="business-address"
                    rows={3}
                    className={`form-control${businessErrors.address ? ' is-invalid' : ''}`}
                    maxLength={businessAddressMaxLength}
                    // i18n-ignore: a field's name, not shown
                    {...register('businessAddress')}
                  />
                  {businessErrors.address && (
                    <div className="invalid-feedback">{businessErrors.address}</div>
                  )}
                </div>
                <div className="mb-2">
                  <label htmlFor="payment-details" className="form-label small mb-1">
                    {t('settings.payment-details')}
                  </label>
                  <textarea
                    id="payment-details"
                    rows={3}
                    className={`form-control${businessErrors.paymentDetails ? ' is-invalid' : ''}`}
                    maxLength={paymentDetailsMaxLength}
                    aria-describedby="payment-details-help"
                    // i18n-ignore: a field's name, not shown
                    {...register('paymentDetails')}
                  />
                  <div id="payment-details-help" className="form-text">
                    {t('settings.payment-details-help')}
                  </div>
                  {businessErrors.paymentDetails && (
                    <div className="invalid-feedback">{businessErrors.paymentDetails}</div>
                  )}
                </div>
              </fieldset>

              <fieldset className="mb-4">
                <legend className="h6">{t('settings.rates')}</legend>
                <p className="form-text mt-0">{t('settings.rates-help')}</p>
                {rateCurrencies.map((currency) => (
                  <div key={currency} className="row g-2 align-items-start mb-2">
                    <div className="col-12 col-sm-6">
                      <label htmlFor={`rate-${currency}`} className="form-label small mb-1">
                        {t('settings.rate-per-unit', { currency: currencyLabel[currency] })}
                      </label>
                      <input
                        id={`rate-${currency}`}
                        className={`form-control${rateErrors[currency] ? ' is-invalid' : ''}`}
                        inputMode="decimal"
                        placeholder={t('settings.rate-placeholder')}
                        // i18n-ignore: a field's name, not shown
                        {...register(`rates.${currency}.usdPerUnit`)}
                      />
                      {rateErrors[currency] && (
                        <div className="invalid-feedback">{rateErrors[currency]}</div>
                      )}
                    </div>
                    <div className="col-12 col-sm-6">
                      <label htmlFor={`rate-date-${currency}`} className="form-label small mb-1">
                        {t('settings.rate-date', { currency: currencyLabel[currency] })}
                      </label>
                      <input
                        id={`rate-date-${currency}`}
                        type="date"
                        max={localToday()}
                        className="form-control"
                        {...register(`rates.${currency}.date`)}
                      />
                    </div>
                  </div>
                ))}
              </fieldset>
              <div className="d-flex gap-2">
                <button type="submit" className="btn btn-primary" disabled={formState.isSubmitting}>
                  {t('settings.save')}
                </button>
                <Link to="/" className="btn btn-outline-secondary">
                  {t('settings.cancel')}
                </Link>
              </div>
            </form>
            <hr />
            <h2 className="h6">{t('settings.your-data')}</h2>
            <p className="form-text mt-0">{t('settings.your-data-help')}</p>
            <div className="d-flex flex-wrap gap-2">
              <a
                className="btn btn-outline-secondary btn-sm"
                href={apiAddress(apiRoutes.exportJson)}
                download
              >
                {t('settings.download-all')}
              </a>
              <a
                className="btn btn-outline-secondary btn-sm"
                href={apiAddress(apiRoutes.exportEntriesCsv)}
                download
              >
                {t('settings.download-entries')}
              </a>
            </div>
            <RestoreAccount />
            <h2 className="h6 mt-4">{t('settings.api')}</h2>
            <p className="form-text mt-0">{t('settings.api-help')}</p>
            <div className="d-flex flex-wrap gap-2">
              <Link className="btn btn-outline-secondary btn-sm" to="/account/tokens">
                {t('settings.api-tokens')}
              </Link>
              <a className="btn btn-outline-secondary btn-sm" href={apiAddress(apiRoutes.apiDocs)}>
                {t('settings.api-reference')}
              </a>
            </div>
          </div>
        </div>
      </div>
    </div>
  );
}
