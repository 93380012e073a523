import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import {
  changeEmailBodySchema,
  changePasswordBodySchema,
  type ChangeEmailBody,
  type ChangePasswordBody,
} from '../../../../shared/schemas/account.ts';
import { useFlash } from '../../../components/flash.tsx';
import { FormField } from '../../../components/form-field.tsx';
import { ApiError, setServerFieldErrors } from '../../../lib/api-client.ts';
import { useChangeEmail, useChangePassword } from '../api/account.ts';

function ServerError({ message }: { message: string | null }) {
  if (!message) return null;
  return (
    <div className="alert alert-danger py-2" role="alert">
      {message}
    </div>
  );
}

export function ChangePasswordForm() {
  const showFlash = useFlash();
  const change = useChangePassword();
  const [serverError, setServerError] = useState<string | null>(null);
  const { register, handleSubmit, setError, reset, formState } = useForm<ChangePasswordBody>({
    resolver: zodResolver(changePasswordBodySchema),
    mode: 'onTouched',
    defaultValues: { currentPassword: '', newPassword: '' },
  });
  const { errors, touchedFields, isSubmitted, isSubmitting } = formState;

  const submit = handleSubmit(async (body) => {
    setServerError(null);
    try {
      await change.mutateAsync(body);
      reset();
      showFlash('Password changed. Every other session has been signed out.', 'success');
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      // A field the server names shows under that field; anything else above the form.
      if (Object.keys(error.fields).length === 0) setServerError(error.message);
      setServerFieldErrors(error, ['currentPassword', 'newPassword'] as const, setError);
    }
  });

  return (
    <form noValidate onSubmit={(event) => void submit(event)} aria-label="Change password">
      <ServerError message={serverError} />
      {/* Lets a password manager know whose password this is. */}
      <input type="hidden" autoComplete="username" />
      <FormField
        label="Current password"
        type="password"
        autoComplete="current-password"
        registration={register('currentPassword')}
        error={errors.currentPassword}
        showError={isSubmitted || touchedFields.currentPassword === true}
      />
      <FormField
        label="New password"
        type="password"
        autoComplete="new-password"
        registration={register('newPassword')}
        error={errors.newPassword}
        showError={isSubmitted || touchedFields.newPassword === true}
      />
      <button type="submit" className="btn btn-primary" disabled={isSubmitting}>
        Change password
      </button>
    </form>
  );
}

export function ChangeEmailForm({ email }: { email: string }) {
  const showFlash = useFlash();
  const change = useChangeEmail();
  const [serverError, setServerError] = useState<string | null>(null);
  const { register, handleSubmit, setError, reset, formState } = useForm<ChangeEmailBody>({
    resolver: zodResolver(changeEmailBodySchema),
    mode: 'onTouched',
    defaultValues: { email, password: '' },
  });
  const { errors, touchedFields, isSubmitted, isSubmitting } = formState;

  const submit = handleSubmit(async (body) => {
    setServerError(null);
    try {
      const { user } = await change.mutateAsync(body);
      reset({ email: user.email, password: '' });
      showFlash('E-mail changed', 'success');
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      // A field the server names shows under that field; anything else above the form.
      if (Object.keys(error.fields).length === 0) setServerError(error.message);
      setServerFieldErrors(error, ['email', 'password'] as const, setError);
    }
  });

  return (
    <form noValidate onSubmit={(event) => void submit(event)} aria-label="Change e-mail">
      <ServerError message={serverError} />
      <FormField
        label="New e-mail"
        type="email"
        autoComplete="email"
        registration={register('email')}
        error={errors.email}
        showError={isSubmitted || touchedFields.email === true}
      />
      <FormField
        label="Password"
        type="password"
        autoComplete="current-password"
        registration={register('password')}
        error={errors.password}
        showError={isSubmitted || touchedFields.password === true}
      />
      <button type="submit" className="btn btn-primary" disabled={isSubmitting}>
        Change e-mail
      </button>
    </form>
  );
}
