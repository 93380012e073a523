import { useId, useState, type ReactNode } from 'react';
import { useForm } from 'react-hook-form';
import { Link } from 'react-router';
import { currencies, currencyLabel, type Currency } from '../../../../shared/money.ts';
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
  type SettingsUpdate,
} from '../../../../shared/schemas/settings.ts';
import { useFlash } from '../../../components/flash.tsx';
import { apiAddress, ApiError } from '../../../lib/api-client.ts';
import { messagesByField } from '../../../components/form-field.tsx';
import { useI18n } from '../../../i18n/use-i18n.ts';
import { useSaveSettings } from '../api/settings.ts';
import { AccountLanguage } from './account-language.tsx';
import { ReminderPlanSection } from './reminder-plan.tsx';
import { RestoreAccount } from './restore-account.tsx';
import { apiRoutes } from '../../../../shared/api-routes.ts';

type RateCurrency = ExchangeRate['currency'];

/**
 * A rate of about the right size for each currency, in US dollars per unit: a placeholder that
 * shows the order of magnitude (a won is about a thousandth of a dollar), not today's rate.
 */
const exampleRates: Record<RateCurrency, string> = { KRW: '0.00075', CAD: '0.73', MYR: '0.22' };

/** Saves one section; the flash is the specification's either way. */
function useSaveSection() {
  const { t } = useI18n();
  const showFlash = useFlash();
  const save = useSaveSettings();
  return async (update: SettingsUpdate) => {
    try {
      await save.mutateAsync(update);
      showFlash(t('settings.saved'), 'success');
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      showFlash(t('settings.save-failed'), 'danger');
    }
  };
}

function Section({ title, help, children }: { title: string; help: string; children: ReactNode }) {
  const headingId = useId();
  return (
    <section className="card mb-4" aria-labelledby={headingId}>
      <div className="card-header">
        <h2 id={headingId} className="h5 mb-0">
          {title}
        </h2>
      </div>
      <div className="card-body">
        <p className="form-text mt-0">{help}</p>
        {children}
      </div>
    </section>
  );
}

/** A yes/no setting with its one-line explanation. */
function Switch({
  id,
  label,
  help,
  field,
}: {
  id: string;
  label: string;
  help: string;
  field: ReturnType<ReturnType<typeof useForm>['register']>;
}) {
  return (
    <div className="form-check mb-3">
      <input
        id={id}
        type="checkbox"
        className="form-check-input"
        aria-describedby={`${id}-help`}
        {...field}
      />
      <label htmlFor={id} className="form-check-label">
        {label}
      </label>
      <div id={`${id}-help`} className="form-text mt-0">
        {help}
      </div>
    </div>
  );
}

interface BusinessValues {
  name: string;
  address: string;
  paymentDetails: string;
  mainCurrency: Currency;
}

function BusinessSection({ business }: { business: Settings['business'] }) {
  const { t, message } = useI18n();
  const saveSection = useSaveSection();
  const [errors, setErrors] = useState<Partial<Record<keyof BusinessValues, string>>>({});
  const { register, handleSubmit, formState } = useForm<BusinessValues>({
    defaultValues: {
      name: business.name,
      address: business.address,
      paymentDetails: business.paymentDetails ?? '',
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

interface MoneyValues {
  disableBalanceOnAdd: boolean;
  disableBalanceOnEdit: boolean;
  rates: Record<RateCurrency, { usdPerUnit: string; date: string }>;
}

function MoneySection({ settings }: { settings: Settings }) {
  const { t, message } = useI18n();
  const saveSection = useSaveSection();
  const [rateErrors, setRateErrors] = useState<Partial<Record<RateCurrency, string>>>({});
  const { register, handleSubmit, formState } = useForm<MoneyValues>({
    defaultValues: {
      disableBalanceOnAdd: settings.preferences.disableBalanceOnAdd,
      disableBalanceOnEdit: settings.preferences.disableBalanceOnEdit,
      rates: Object.fromEntries(
        rateCurrencies.map((currency) => {
          const rate = settings.rates.find((candidate) => candidate.currency === currency);
          return [currency, { usdPerUnit: rate?.usdPerUnit ?? '', date: rate?.date ?? '' }];
        }),
      ),
    },
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
    if (Object.keys(errors).length > 0) return;
    await saveSection({
      preferences: {
        disableBalanceOnAdd: values.disableBalanceOnAdd,
        disableBalanceOnEdit: values.disableBalanceOnEdit,
      },
      rates,
    });
  });

  return (
    <Section title={t('settings.money')} help={t('settings.money-help')}>
      <form noValidate onSubmit={(event) => void submit(event)}>
        <Switch
          id="disable-on-add"
          label={t('settings.disable-balance-on-add')}
          help={t('settings.disable-balance-on-add-help')}
          field={register('disableBalanceOnAdd')}
        />
        <Switch
          id="disable-on-edit"
          label={t('settings.disable-balance-on-edit')}
          help={t('settings.disable-balance-on-edit-help')}
          field={register('disableBalanceOnEdit')}
        />
        <fieldset className="mb-3">
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
                  placeholder={t('settings.rate-placeholder', { rate: exampleRates[currency] })}
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
        <button type="submit" className="btn btn-primary" disabled={formState.isSubmitting}>
          {t('settings.save-money')}
        </button>
      </form>
    </Section>
  );
}

function RegistrationSection({ allowRegistration }: { allowRegistration: boolean }) {
  const { t } = useI18n();
  const saveSection = useSaveSection();
  const { register, handleSubmit, formState } = useForm<{ allowRegistration: boolean }>({
    defaultValues: { allowRegistration },
  });
  const submit = handleSubmit((values) => saveSection(values));
  return (
    <Section title={t('settings.registration')} help={t('settings.registration-help')}>
      <form noValidate onSubmit={(event) => void submit(event)}>
        <Switch
          id="allow-registration"
          label={t('settings.allow-registration')}
          help={t('settings.allow-registration-help')}
          field={register('allowRegistration')}
        />
        <button type="submit" className="btn btn-primary" disabled={formState.isSubmitting}>
          {t('settings.save-registration')}
        </button>
      </form>
    </Section>
  );
}

/**
 * The Settings screen, in sections that each save on their own: the business, money and rates,
 * registration (the administrator's), the owner's data, and API tokens.
 */
export function SettingsForm({ settings }: { settings: Settings }) {
  const { t } = useI18n();
  return (
    <div className="row justify-content-center">
      <div className="col-12 col-lg-9 col-xl-8">
        <h1 className="mb-3">{t('settings.title')}</h1>
        <BusinessSection business={settings.business} />
        <MoneySection settings={settings} />
        <ReminderPlanSection />
        {settings.allowRegistration !== null && (
          <RegistrationSection allowRegistration={settings.allowRegistration} />
        )}
        <Section title={t('settings.your-data')} help={t('settings.your-data-help')}>
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
        </Section>
        <Section title={t('settings.api')} help={t('settings.api-help')}>
          <div className="d-flex flex-wrap gap-2">
            <Link className="btn btn-outline-secondary btn-sm" to="/account/tokens">
              {t('settings.api-tokens')}
            </Link>
            <a className="btn btn-outline-secondary btn-sm" href={apiAddress(apiRoutes.apiDocs)}>
              {t('settings.api-reference')}
            </a>
          </div>
        </Section>
      </div>
    </div>
  );
}
