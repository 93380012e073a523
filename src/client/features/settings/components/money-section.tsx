import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { currencyLabel } from '../../../../shared/money.ts';
import { localToday } from '../../../../shared/dates.ts';
import { rateToSave, unitsPerUsd } from '../../../../shared/exchange.ts';
import {
  exchangeRateSchema,
  rateCurrencies,
  type ExchangeRate,
  type Settings,
} from '../../../../shared/schemas/settings.ts';
import { useI18n } from '../../../i18n/use-i18n.ts';
import { Section } from '../../../components/settings-card.tsx';
import { Switch, useSaveSection } from './settings-section.tsx';

type RateCurrency = ExchangeRate['currency'];

/**
 * A rate of about the right size for each currency, as units one US dollar buys ("1 USD = 1,333
 * KRW", as banks and people quote them): a placeholder that shows the order of magnitude, not
 * today's rate. Stored as US dollars per unit, as before (shared/exchange.ts converts).
 */
const exampleRates: Record<RateCurrency, string> = { KRW: '1,333', CAD: '1.37', MYR: '4.47' };

interface MoneyValues {
  disableBalanceOnAdd: boolean;
  disableBalanceOnEdit: boolean;
  rates: Record<RateCurrency, { unitsPerUsd: string; date: string }>;
}

/** Money: whether a balance may be typed when adding or editing a client, and the rates. */
export function MoneySection({ settings }: { settings: Settings }) {
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
          const shown = rate ? (unitsPerUsd(rate.usdPerUnit) ?? '') : '';
          return [currency, { unitsPerUsd: shown, date: rate?.date ?? '' }];
        }),
      ),
    },
  });

  const submit = handleSubmit(async (values) => {
    const rates: ExchangeRate[] = [];
    const errors: Partial<Record<RateCurrency, string>> = {};
    for (const currency of rateCurrencies) {
      const { unitsPerUsd: typed, date } = values.rates[currency];
      if (typed.trim() === '' && date.trim() === '') continue;
      const stored = settings.rates.find((rate) => rate.currency === currency);
      const usdPerUnit = rateToSave(typed, stored?.usdPerUnit);
      if (usdPerUnit === null) {
        errors[currency] = t('settings.rate-invalid', {
          currency: currencyLabel[currency],
          rate: exampleRates[currency],
        });
        continue;
      }
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
                {/* Read as it is said: 1 USD = [1,333] KRW. */}
                <div className={`input-group${rateErrors[currency] ? ' has-validation' : ''}`}>
                  <span className="input-group-text" aria-hidden="true">
                    {t('settings.rate-one-usd')}
                  </span>
                  <input
                    id={`rate-${currency}`}
                    className={`form-control${rateErrors[currency] ? ' is-invalid' : ''}`}
                    inputMode="decimal"
                    placeholder={t('settings.rate-placeholder', { rate: exampleRates[currency] })}
                    {...register(`rates.${currency}.unitsPerUsd`)}
                  />
                  <span className="input-group-text" aria-hidden="true">
                    {currencyLabel[currency]}
                  </span>
                  {rateErrors[currency] && (
                    <div className="invalid-feedback">{rateErrors[currency]}</div>
                  )}
                </div>
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
