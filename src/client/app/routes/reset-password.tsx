import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { z } from 'zod/mini';
import { Link, useNavigate, useParams } from 'react-router';
import { newPasswordField } from '../../../shared/schemas/account.ts';
import { useDocumentTitle } from '../../components/document-title.ts';
import { useFlash } from '../../components/flash.tsx';
import { FormField } from '../../components/form-field.tsx';
import { useI18n } from '../../i18n/use-i18n.ts';
import { useResetPassword } from '../../features/account/api/account.ts';
import { ApiError, setServerFieldErrors } from '../../lib/api-client.ts';

const formSchema = z.object({ password: newPasswordField });

/** Opened from a reset link the administrator handed over: a new password, once. */
export function ResetPasswordPage() {
  const { t, message } = useI18n();
  useDocumentTitle(t('auth.reset.title'));
  const { token = '' } = useParams();
  const navigate = useNavigate();
  const showFlash = useFlash();
  const resetPassword = useResetPassword();
  const [serverError, setServerError] = useState<string | null>(null);
  const { register, handleSubmit, setError, formState } = useForm<{ password: string }>({
    resolver: zodResolver(formSchema),
    mode: 'onTouched', // i18n-ignore: a react-hook-form option
    defaultValues: { password: '' },
  });
  const { errors, touchedFields, isSubmitted, isSubmitting } = formState;

  const submit = handleSubmit(async ({ password }) => {
    setServerError(null);
    try {
      await resetPassword.mutateAsync({ token, password });
      showFlash(t('auth.reset.done'), 'success');
      await navigate('/login', { replace: true });
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      setServerError(
        error.code === 'validation' && error.fields.token
          ? t('auth.reset.invalid-link')
          : message(error.message),
      );
      setServerFieldErrors(error, ['password'] as const, setError);
    }
  });

  return (
    <div className="row justify-content-center">
      <div className="col-12 col-sm-10 col-md-7 col-lg-5">
        <div className="card">
          <div className="card-header">
            <h1 className="h5 mb-0">{t('auth.reset.title')}</h1>
          </div>
          <div className="card-body">
            <form noValidate onSubmit={(event) => void submit(event)}>
              {serverError && (
                <div className="alert alert-danger py-2" role="alert">
                  {serverError}
                </div>
              )}
              <p className="form-text mt-0">{t('auth.reset.intro')}</p>
              <FormField
                label={t('auth.reset.new-password')}
                type="password"
                autoComplete="new-password"
                registration={register('password')}
                error={errors.password}
                showError={isSubmitted || touchedFields.password === true}
              />
              <button type="submit" className="btn btn-primary w-100" disabled={isSubmitting}>
                {t('auth.reset.submit')}
              </button>
            </form>
            <p className="mt-3 mb-0 small">
              <Link to="/login">{t('auth.reset.back-to-login')}</Link>
            </p>
          </div>
        </div>
      </div>
    </div>
  );
}
