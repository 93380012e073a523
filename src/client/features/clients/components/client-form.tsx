import { useId, useState, type ReactNode } from 'react';
import { useForm } from 'react-hook-form';
import { Link } from 'react-router';
import { zodResolver } from '@hookform/resolvers/zod';
import { currencies, currencyLabel, parseAmount } from '../../../../shared/money.ts';
import {
  businessFields,
  clientFormSchema,
  noBusiness,
  entryReferenceMaxLength,
  type ClientForm as ClientFormValues,
  type ClientInput,
} from '../../../../shared/schemas/clients.ts';
import { localToday } from '../../../../shared/dates.ts';
import { FormField } from '../../../components/form-field.tsx';
import { ApiError, setServerFieldErrors } from '../../../lib/api-client.ts';
import { useI18n } from '../../../i18n/use-i18n.ts';
import { BusinessFields } from './business-fields.tsx';

export type { ClientFormValues };

export const emptyClientForm: ClientFormValues = {
  firstName: '',
  lastName: '',
  email: '',
  phone: '',
  balance: '',
  currency: 'USD',
  openingDate: '',
  openingDueDate: '',
  openingReference: '',
  ...noBusiness,
};

interface ClientFormProps {
  title: string;
  initialValues: ClientFormValues;
  /** Receives the client with its balance in minor units; rejects with ApiError on failure. */
  onSubmit: (client: ClientInput & { balance: number }) => Promise<unknown>;
  balanceDisabled?: boolean;
  /** The Add form: the balance is an opening balance, with its date, due date and reference. */
  openingFields?: boolean;
  /** The Edit form of a client with an opening balance: its date, due date and reference. */
  editOpening?: boolean;
  /** Why the currency cannot change, if it cannot (shown under it). */
  currencyLockedBecause?: string | null;
  /** Shown above the fields, e.g. after a conflict. */
  notice?: ReactNode;
  /** Where Cancel goes, leaving the client as it was. */
  cancelTo: string;
}

// i18n-ignore: the form's field names, not shown
const fieldNames = [
  'firstName',
  'lastName',
  'email',
  'phone',
  'balance',
  'currency',
  'openingDate',
  'openingDueDate',
  'openingReference',
  ...businessFields,
] as const;
type FieldName = (typeof fieldNames)[number];

/** The Add Client and Edit Client form, with the validation messages of the specification. */
export function ClientForm({
  title,
  initialValues,
  onSubmit,
  balanceDisabled = false,
  openingFields = false,
  editOpening = false,
  currencyLockedBecause = null,
  notice,
  cancelTo,
}: ClientFormProps) {
  const currencyId = useId();
  const balanceId = useId();
  const [serverError, setServerError] = useState<string | null>(null);
  const { t, message } = useI18n();
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors, touchedFields, isSubmitted, isSubmitting },
  } = useForm<ClientFormValues>({
    resolver: zodResolver(clientFormSchema),
    mode: 'onTouched', // i18n-ignore: a react-hook-form mode
    defaultValues: initialValues,
  });
  const shows = (name: FieldName) => isSubmitted || touchedFields[name] === true;
  /** A text field's registration, its error in the shown language and whether to show it yet. */
  const field = (name: Exclude<FieldName, 'currency'>) => {
    const error = errors[name];
    return {
      registration: register(name),
      error: error && { ...error, message: message(error.message ?? '') },
      showError: shows(name),
    };
  };

  const submit = handleSubmit(async (values) => {
    setServerError(null);
    const balance = parseAmount(values.balance, values.currency);
    if (!balance.ok) return setError('balance', { type: 'parse', message: balance.error });
    const { openingDate = '', openingDueDate = '', openingReference = '', ...contact } = values;
    const opening = openingFields && !balanceDisabled && balance.minor !== 0;
    try {
      await onSubmit({
        ...contact,
        balance: balance.minor,
        ...(opening && openingDate !== '' ? { openingDate } : {}),
        ...(opening && openingDueDate !== '' ? { openingDueDate } : {}),
        ...(opening && openingReference !== '' ? { openingReference } : {}),
        // An existing opening's terms as shown: an emptied due date or reference is removed.
        ...(editOpening
          ? {
              ...(openingDate !== '' ? { openingDate } : {}),
              openingDueDate: openingDueDate === '' ? null : openingDueDate,
              openingReference,
            }
          : {}),
      });
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      if (error.code !== 'conflict') setServerError(error.message);
      setServerFieldErrors(error, fieldNames, setError);
    }
  });

  return (
    <div className="row justify-content-center">
      <div className="col-12 col-lg-8">
        <div className="card">
          <div className="card-header">
            <h1 className="h5 mb-0">{title}</h1>
          </div>
          <div className="card-body">
            {notice}
            <form
              noValidate
              onSubmit={(event) => void submit(event)}
              // The server's complaint was about what was sent, not about what is typed now.
              onChange={() => setServerError(null)}
            >
              {serverError && (
                <div className="alert alert-danger py-2" role="alert">
                  {message(serverError)}
                </div>
              )}
              <div className="row">
                <FormField
                  className="col-12 col-sm-6 mb-3"
                  label={t('clients.field.first-name')}
                  autoComplete="off"
                  // i18n-ignore: a field's name
                  {...field('firstName')}
                />
                <FormField
                  className="col-12 col-sm-6 mb-3"
                  label={t('clients.field.last-name')}
                  autoComplete="off"
                  // i18n-ignore: a field's name
                  {...field('lastName')}
                />
              </div>
              <FormField
                label={t('clients.field.email')}
                type="email"
                autoComplete="off"
                {...field('email')}
              />
              <FormField
                label={t('clients.field.phone')}
                type="tel"
                autoComplete="off"
                {...field('phone')}
              />
              <BusinessFields
                register={register}
                errors={errors}
                shows={shows}
                initiallyOpen={businessFields.some((name) => (initialValues[name] ?? '') !== '')}
              />
              <div className="row">
                {balanceDisabled ? (
                  // Not registered: the form keeps its initial balance, which the server keeps too.
                  <div className="col-7 mb-3">
                    <label htmlFor={balanceId} className="form-label">
                      {t('clients.field.balance')}
                    </label>
                    <input
                      id={balanceId}
                      className="form-control"
                      placeholder="0"
                      value={initialValues.balance}
                      disabled
                      readOnly
                    />
                    <div className="form-text">{t('clients.turned-off-in-settings')}</div>
                  </div>
                ) : (
                  <FormField
                    className="col-7 mb-3"
                    label={t('clients.field.balance')}
                    inputMode="decimal"
                    placeholder="0"
                    {...field('balance')}
                  />
                )}
                <div className="col-5 mb-3">
                  <label htmlFor={currencyId} className="form-label">
                    {t('clients.field.currency')}
                  </label>
                  {currencyLockedBecause ? (
                    <>
                      <select
                        id={currencyId}
                        className="form-select"
                        value={initialValues.currency}
                        aria-describedby={`${currencyId}-why`}
                        disabled
                      >
                        <option value={initialValues.currency}>
                          {currencyLabel[initialValues.currency]}
                        </option>
                      </select>
                      <div id={`${currencyId}-why`} className="form-text">
                        {currencyLockedBecause}
                      </div>
                    </>
                  ) : (
                    <select
                      id={currencyId}
                      className={`form-select${shows('currency') && errors.currency ? ' is-invalid' : ''}`}
                      {...register('currency')}
                    >
                      {currencies.map((currency) => (
                        <option key={currency} value={currency}>
                          {currencyLabel[currency]}
                        </option>
                      ))}
                    </select>
                  )}
                  {shows('currency') && errors.currency && (
                    <div className="invalid-feedback">{message(errors.currency.message ?? '')}</div>
                  )}
                </div>
              </div>
              {((openingFields && !balanceDisabled) || editOpening) && (
                <fieldset className="row">
                  <legend className="form-text mb-2">
                    {editOpening ? t('clients.opening.edit-legend') : t('clients.opening.legend')}
                  </legend>
                  <FormField
                    className="col-12 col-sm-4 mb-3"
                    label={t('clients.opening.date')}
                    type="date"
                    max={localToday()}
                    {...field('openingDate')}
                  />
                  <FormField
                    className="col-12 col-sm-4 mb-3"
                    label={t('clients.entry.due-date')}
                    type="date"
                    {...field('openingDueDate')}
                  />
                  <FormField
                    className="col-12 col-sm-4 mb-3"
                    label={t('clients.entry.reference')}
                    autoComplete="off"
                    maxLength={entryReferenceMaxLength}
                    {...field('openingReference')}
                  />
                </fieldset>
              )}
              <div className="d-flex gap-2">
                <button type="submit" className="btn btn-primary" disabled={isSubmitting}>
                  {t('clients.form.submit')}
                </button>
                <Link to={cancelTo} className="btn btn-outline-secondary">
                  {t('clients.cancel')}
                </Link>
              </div>
            </form>
          </div>
        </div>
      </div>
    </div>
  );
}
