import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { z } from 'zod/mini';
import { Link, useNavigate, useParams } from 'react-router';
import { newPasswordField } from '../../../shared/schemas/account.ts';
import { useDocumentTitle } from '../../components/document-title.ts';
import { useFlash } from '../../components/flash.tsx';
import { FormField } from '../../components/form-field.tsx';
import { useResetPassword } from '../../features/account/api/account.ts';
import { ApiError, setServerFieldErrors } from '../../lib/api-client.ts';

const formSchema = z.object({ password: newPasswordField });

/** Opened from a reset link the administrator handed over: a new password, once. */
export function ResetPasswordPage() {
  useDocumentTitle('Choose a new password');
  const { token = '' } = useParams();
  const navigate = useNavigate();
  const showFlash = useFlash();
  const resetPassword = useResetPassword();
  const [serverError, setServerError] = useState<string | null>(null);
  const { register, handleSubmit, setError, formState } = useForm<{ password: string }>({
    resolver: zodResolver(formSchema),
    mode: 'onTouched',
    defaultValues: { password: '' },
  });
  const { errors, touchedFields, isSubmitted, isSubmitting } = formState;

  const submit = handleSubmit(async ({ password }) => {
    setServerError(null);
    try {
      await resetPassword.mutateAsync({ token, password });
      showFlash('Your password has been changed. Log in with it.', 'success');
      await navigate('/login', { replace: true });
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      setServerError(
        error.code === 'validation' && error.fields.token
          ? 'This link is not valid.'
          : error.message,
      );
      setServerFieldErrors(error, ['password'] as const, setError);
    }
  });

  return (
    <div className="row justify-content-center">
      <div className="col-12 col-sm-10 col-md-7 col-lg-5">
        <div className="card">
          <div className="card-header">
            <h1 className="h5 mb-0">Choose a new password</h1>
          </div>
          <div className="card-body">
            <form noValidate onSubmit={(event) => void submit(event)}>
              {serverError && (
                <div className="alert alert-danger py-2" role="alert">
                  {serverError}
                </div>
              )}
              <p className="form-text mt-0">
                Every session of this account is signed out once the new password is set.
              </p>
              <FormField
                label="New password"
                type="password"
                autoComplete="new-password"
                registration={register('password')}
                error={errors.password}
                showError={isSubmitted || touchedFields.password === true}
              />
              <button type="submit" className="btn btn-primary w-100" disabled={isSubmitting}>
                Set password
              </button>
            </form>
            <p className="mt-3 mb-0 small">
              <Link to="/login">Back to log in</Link>
            </p>
          </div>
        </div>
      </div>
    </div>
  );
}
