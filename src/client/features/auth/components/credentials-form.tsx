import { useState, type ReactNode } from 'react';
import { useForm } from 'react-hook-form';
import { Link } from 'react-router';
import { zodResolver } from '@hookform/resolvers/zod';
import type { joinBodySchema, loginBodySchema } from '../../../../shared/schemas/auth.ts';
import { FormField } from '../../../components/form-field.tsx';
import { useI18n } from '../../../i18n/use-i18n.ts';
import { ApiError, setServerFieldErrors } from '../../../lib/api-client.ts';

interface Credentials {
  email: string;
  password: string;
}

interface CredentialsFormProps {
  title: string;
  schema: typeof loginBodySchema | typeof joinBodySchema;
  passwordAutoComplete: 'current-password' | 'new-password';
  onSubmit: (credentials: Credentials) => Promise<unknown>;
  /** Shown above the form, e.g. who an invitation is for. */
  intro?: ReactNode;
  /** Shown below the form, e.g. what to do about a forgotten password. */
  footer?: ReactNode;
}

/** The Join and Login form: e-mail, password, Submit; the server's error shown in the form. */
export function CredentialsForm({
  title,
  schema,
  passwordAutoComplete,
  onSubmit,
  intro,
  footer,
}: CredentialsFormProps) {
  const { t, message } = useI18n();
  const [serverError, setServerError] = useState<string | null>(null);
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors, touchedFields, isSubmitted, isSubmitting },
  } = useForm<Credentials>({
    resolver: zodResolver(schema),
    mode: 'onTouched', // i18n-ignore: a react-hook-form option
    defaultValues: { email: '', password: '' },
  });

  const submit = handleSubmit(async (credentials) => {
    setServerError(null);
    try {
      await onSubmit(credentials);
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      setServerError(message(error.message));
      setServerFieldErrors(error, ['email', 'password'] as const, setError);
    }
  });

  return (
    <div className="row justify-content-center">
      <div className="col-12 col-sm-10 col-md-7 col-lg-5">
        <div className="card">
          <div className="card-header">
            <h1 className="h5 mb-0">{title}</h1>
          </div>
          <div className="card-body">
            {intro}
            <form
              noValidate
              onSubmit={(event) => void submit(event)}
              // The server's answer was about what was sent: once that changes, it no longer applies.
              onChange={() => setServerError(null)}
            >
              {serverError && (
                <div className="alert alert-danger py-2" role="alert">
                  {serverError}
                </div>
              )}
              <FormField
                label={t('auth.form.email')}
                type="email"
                autoComplete="username"
                registration={register('email')}
                error={errors.email}
                showError={isSubmitted || touchedFields.email === true}
              />
              <FormField
                label={t('auth.form.password')}
                type="password"
                autoComplete={passwordAutoComplete}
                registration={register('password')}
                error={errors.password}
                showError={isSubmitted || touchedFields.password === true}
              />
              <button type="submit" className="btn btn-primary w-100" disabled={isSubmitting}>
                {t('auth.form.submit')}
              </button>
              <Link to="/" className="btn btn-link w-100 mt-2">
                {t('auth.cancel')}
              </Link>
            </form>
            {footer}
          </div>
        </div>
      </div>
    </div>
  );
}
