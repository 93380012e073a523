import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import {
  forgotPasswordBodySchema,
  type ForgotPasswordBody,
} from '../../../../shared/schemas/auth.ts';
import { FormField } from '../../../components/form-field.tsx';
import { useI18n } from '../../../i18n/use-i18n.ts';
import { ApiError, setServerFieldErrors } from '../../../lib/api-client.ts';
import { useForgotPassword } from '../api/forgot-password.ts';

/**
 * "Forgot password?" under the login form: a link that opens a small form asking for the e-mail,
 * then shows the server's answer (the same whether or not the account exists).
 */
export function ForgotPassword() {
  const { t, message } = useI18n();
  const [open, setOpen] = useState(false);
  const [answer, setAnswer] = useState<string | null>(null);
  const [serverError, setServerError] = useState<string | null>(null);
  const forgot = useForgotPassword();
  const {
    register,
    handleSubmit,
    setError,
    reset,
    formState: { errors, touchedFields, isSubmitted, isSubmitting },
  } = useForm<ForgotPasswordBody>({
    resolver: zodResolver(forgotPasswordBodySchema),
    mode: 'onTouched', // i18n-ignore: a react-hook-form option
    defaultValues: { email: '' },
  });

  const close = () => {
    setOpen(false);
    setAnswer(null);
    setServerError(null);
    reset();
  };

  const submit = handleSubmit(async (body) => {
    setServerError(null);
    try {
      setAnswer(message((await forgot.mutateAsync(body)).message));
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      setServerError(message(error.message));
      setServerFieldErrors(error, ['email'] as const, setError);
    }
  });

  if (!open) {
    return (
      <p className="mt-3 mb-0 small">
        <button type="button" className="btn btn-link btn-sm p-0" onClick={() => setOpen(true)}>
          {t('auth.forgot.title')}
        </button>
      </p>
    );
  }
  return (
    <section className="mt-3 pt-3 border-top" aria-labelledby="forgot-password-title">
      <h2 id="forgot-password-title" className="h6">
        {t('auth.forgot.title')}
      </h2>
      {answer ? (
        <>
          <div className="alert alert-success py-2" role="status">
            {answer}
          </div>
          <button type="button" className="btn btn-outline-secondary btn-sm" onClick={close}>
            {t('auth.forgot.close')}
          </button>
        </>
      ) : (
        <form noValidate onSubmit={(event) => void submit(event)}>
          <p className="small text-body-secondary">{t('auth.forgot.intro')}</p>
          {serverError && (
            <div className="alert alert-danger py-2" role="alert">
              {serverError}
            </div>
          )}
          <FormField
            label={t('auth.forgot.email')}
            type="email"
            autoComplete="username"
            registration={register('email')}
            error={errors.email}
            showError={isSubmitted || touchedFields.email === true}
          />
          <div className="d-flex gap-2">
            <button type="submit" className="btn btn-primary btn-sm" disabled={isSubmitting}>
              {t('auth.forgot.send')}
            </button>
            <button type="button" className="btn btn-outline-secondary btn-sm" onClick={close}>
              {t('auth.cancel')}
            </button>
          </div>
        </form>
      )}
    </section>
  );
}
