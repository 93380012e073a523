import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import {
  invitationBodySchema,
  type InvitationBody,
  type OneTimeLink,
} from '../../../../shared/schemas/account.ts';
import { FormField } from '../../../components/form-field.tsx';
import { useI18n } from '../../../i18n/use-i18n.ts';
import { ApiError, setServerFieldErrors } from '../../../lib/api-client.ts';
import { useCreateInvitation } from '../api/admin.ts';
import { OneTimeLinkBox } from './one-time-link.tsx';

/** An invitation for one e-mail, so that person can join while registration is closed. */
export function InviteForm() {
  const { t, message } = useI18n();
  const create = useCreateInvitation();
  const [created, setCreated] = useState<{ email: string; link: OneTimeLink } | null>(null);
  const [serverError, setServerError] = useState<string | null>(null);
  const { register, handleSubmit, setError, formState } = useForm<InvitationBody>({
    resolver: zodResolver(invitationBodySchema),
    mode: 'onTouched', // i18n-ignore: a react-hook-form option
    defaultValues: { email: '' },
  });
  const { errors, touchedFields, isSubmitted, isSubmitting } = formState;

  const submit = handleSubmit(async (body) => {
    setServerError(null);
    try {
      setCreated({ email: body.email, link: await create.mutateAsync(body) });
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      // A field the server names shows under that field; anything else above the form.
      if (Object.keys(error.fields).length === 0) setServerError(message(error.message));
      setServerFieldErrors(error, ['email'] as const, setError);
    }
  });

  return (
    <>
      {created && (
        <OneTimeLinkBox
          label={t('admin.invitations.link-for', { email: created.email })}
          link={created.link}
        />
      )}
      <form
        noValidate
        aria-label={t('admin.invitations.form')}
        onSubmit={(event) => void submit(event)}
      >
        {serverError && (
          <div className="alert alert-danger py-2" role="alert">
            {serverError}
          </div>
        )}
        <FormField
          label={t('admin.invitations.email')}
          type="email"
          autoComplete="off"
          registration={register('email')}
          error={errors.email}
          showError={isSubmitted || touchedFields.email === true}
        />
        <button type="submit" className="btn btn-primary" disabled={isSubmitting}>
          {t('admin.invitations.create')}
        </button>
      </form>
    </>
  );
}
