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
import { useI18n } from '../../../i18n/use-i18n.ts';
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

/** `onChanged`: the page then asks the owner to look at the client links made recently. */
export function ChangePasswordForm({ onChanged }: { onChanged?: () => void }) {
  const { t, message } = useI18n();
  const showFlash = useFlash();
  const change = useChangePassword();
  const [serverError, setServerError] = useState<string | null>(null);
  const { register, handleSubmit, setError, reset, formState } = useForm<ChangePasswordBody>({
    resolver: zodResolver(changePasswordBodySchema),
    mode: 'onTouched', // i18n-ignore: a react-hook-form option
    defaultValues: { currentPassword: '', newPassword: '' },
  });
  const { errors, touchedFields, isSubmitted, isSubmitting } = formState;

  const submit = handleSubmit(async (body) => {
    setServerError(null);
    try {
      await change.mutateAsync(body);
      reset();
      showFlash(t('account.password.changed'), 'success');
      onChanged?.();
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      // A field the server names shows under that field; anything else above the form.
      if (Object.keys(error.fields).length === 0) setServerError(message(error.message));
      // i18n-ignore: the names of the form's fields
      setServerFieldErrors(error, ['currentPassword', 'newPassword'] as const, setError);
    }
  });

  return (
    <form
      noValidate
      onSubmit={(event) => void submit(event)}
      aria-label={t('account.password.change')}
    >
      <ServerError message={serverError} />
      {/* Said before the owner commits: scripts with a token stop working too. */}
      <p className="form-text mt-0">{t('account.password.intro')}</p>
      {/* Lets a password manager know whose password this is. */}
      <input type="hidden" autoComplete="username" />
      <FormField
        label={t('account.password.current')}
        type="password"
        autoComplete="current-password"
        registration={register('currentPassword')} // i18n-ignore: a field's name
        error={errors.currentPassword}
        showError={isSubmitted || touchedFields.currentPassword === true}
      />
      <FormField
        label={t('account.password.new')}
        type="password"
        autoComplete="new-password"
        registration={register('newPassword')} // i18n-ignore: a field's name
        error={errors.newPassword}
        showError={isSubmitted || touchedFields.newPassword === true}
      />
      <button type="submit" className="btn btn-primary" disabled={isSubmitting}>
        {t('account.password.change')}
      </button>
    </form>
  );
}

export function ChangeEmailForm({ email }: { email: string }) {
  const { t, message } = useI18n();
  const showFlash = useFlash();
  const change = useChangeEmail();
  const [serverError, setServerError] = useState<string | null>(null);
  const { register, handleSubmit, setError, reset, formState } = useForm<ChangeEmailBody>({
    resolver: zodResolver(changeEmailBodySchema),
    mode: 'onTouched', // i18n-ignore: a react-hook-form option
    defaultValues: { email, password: '' },
  });
  const { errors, touchedFields, isSubmitted, isSubmitting } = formState;

  const submit = handleSubmit(async (body) => {
    setServerError(null);
    try {
      const { user } = await change.mutateAsync(body);
      reset({ email: user.email, password: '' });
      showFlash(t('account.email.changed'), 'success');
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      // A field the server names shows under that field; anything else above the form.
      if (Object.keys(error.fields).length === 0) setServerError(message(error.message));
      setServerFieldErrors(error, ['email', 'password'] as const, setError);
    }
  });

  return (
    <form
      noValidate
      onSubmit={(event) => void submit(event)}
      aria-label={t('account.email.change')}
    >
      <ServerError message={serverError} />
      {/* Said before the owner commits, as for the password. */}
      <p className="form-text mt-0">{t('account.email.intro')}</p>
      <FormField
        label={t('account.email.new')}
        type="email"
        autoComplete="email"
        registration={register('email')}
        error={errors.email}
        showError={isSubmitted || touchedFields.email === true}
      />
      <FormField
        label={t('account.email.password')}
        type="password"
        autoComplete="current-password"
        registration={register('password')}
        error={errors.password}
        showError={isSubmitted || touchedFields.password === true}
      />
      <button type="submit" className="btn btn-primary" disabled={isSubmitting}>
        {t('account.email.change')}
      </button>
    </form>
  );
}
