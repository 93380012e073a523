import { useId, useState, type ReactNode } from 'react';
import { useForm } from 'react-hook-form';
import { Link } from 'react-router';
import { zodResolver } from '@hookform/resolvers/zod';
import { currencies, currencyLabel, parseAmount } from '../../../../shared/money.ts';
import {
  clientFormSchema,
  type ClientForm as ClientFormValues,
  type ClientInput,
} from '../../../../shared/schemas/clients.ts';
import { FormField } from '../../../components/form-field.tsx';
import { ApiError, setServerFieldErrors } from '../../../lib/api-client.ts';

export type { ClientFormValues };

export const emptyClientForm: ClientFormValues = {
  firstName: '',
  lastName: '',
  email: '',
  phone: '',
  balance: '',
  currency: 'USD',
};

interface ClientFormProps {
  title: string;
  initialValues: ClientFormValues;
  /** Receives the client with its balance in minor units; rejects with ApiError on failure. */
  onSubmit: (client: Required<ClientInput>) => Promise<unknown>;
  balanceDisabled?: boolean;
  /** Why the currency cannot change, if it cannot (shown under it). */
  currencyLockedBecause?: string | null;
  /** Shown above the fields, e.g. after a conflict. */
  notice?: ReactNode;
  /** Where Cancel goes, leaving the client as it was. */
  cancelTo: string;
}

const fieldNames = ['firstName', 'lastName', 'email', 'phone', 'balance', 'currency'] as const;

/** The Add Client and Edit Client form, with the validation messages of the specification. */
export function ClientForm({
  title,
  initialValues,
  onSubmit,
  balanceDisabled = false,
  currencyLockedBecause = null,
  notice,
  cancelTo,
}: ClientFormProps) {
  const currencyId = useId();
  const balanceId = useId();
  const [serverError, setServerError] = useState<string | null>(null);
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors, touchedFields, isSubmitted, isSubmitting },
  } = useForm<ClientFormValues>({
    resolver: zodResolver(clientFormSchema),
    mode: 'onTouched',
    defaultValues: initialValues,
  });
  const shows = (name: (typeof fieldNames)[number]) => isSubmitted || touchedFields[name] === true;

  const submit = handleSubmit(async (values) => {
    setServerError(null);
    const balance = parseAmount(values.balance, values.currency);
    if (!balance.ok) return setError('balance', { type: 'parse', message: balance.error });
    try {
      await onSubmit({ ...values, balance: balance.minor });
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
                  {serverError}
                </div>
              )}
              <div className="row">
                <FormField
                  className="col-12 col-sm-6 mb-3"
                  label="First name"
                  autoComplete="off"
                  registration={register('firstName')}
                  error={errors.firstName}
                  showError={shows('firstName')}
                />
                <FormField
                  className="col-12 col-sm-6 mb-3"
                  label="Last name"
                  autoComplete="off"
                  registration={register('lastName')}
                  error={errors.lastName}
                  showError={shows('lastName')}
                />
              </div>
              <FormField
                label="Email"
                type="email"
                autoComplete="off"
                registration={register('email')}
                error={errors.email}
                showError={shows('email')}
              />
              <FormField
                label="Phone"
                type="tel"
                autoComplete="off"
                registration={register('phone')}
                error={errors.phone}
                showError={shows('phone')}
              />
              <div className="row">
                {balanceDisabled ? (
                  // Not registered: the form keeps its initial balance, which the server keeps too.
                  <div className="col-7 mb-3">
                    <label htmlFor={balanceId} className="form-label">
                      Balance
                    </label>
                    <input
                      id={balanceId}
                      className="form-control"
                      placeholder="0"
                      value={initialValues.balance}
                      disabled
                      readOnly
                    />
                    <div className="form-text">Turned off in Settings</div>
                  </div>
                ) : (
                  <FormField
                    className="col-7 mb-3"
                    label="Balance"
                    inputMode="decimal"
                    placeholder="0"
                    registration={register('balance')}
                    error={errors.balance}
                    showError={shows('balance')}
                  />
                )}
                <div className="col-5 mb-3">
                  <label htmlFor={currencyId} className="form-label">
                    Currency
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
                    <div className="invalid-feedback">{errors.currency.message}</div>
                  )}
                </div>
              </div>
              <div className="d-flex gap-2">
                <button type="submit" className="btn btn-primary" disabled={isSubmitting}>
                  Submit
                </button>
                <Link to={cancelTo} className="btn btn-outline-secondary">
                  Cancel
                </Link>
              </div>
            </form>
          </div>
        </div>
      </div>
    </div>
  );
}
