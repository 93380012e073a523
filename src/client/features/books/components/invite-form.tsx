import { useId, useState } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { bookRoles, type BookRole } from '../../../../shared/schemas/books.ts';
import { inviteBodySchema } from '../../../../shared/schemas/members.ts';
import { FormField } from '../../../components/form-field.tsx';
import { useI18n } from '../../../i18n/use-i18n.ts';
import { ApiError, setServerFieldErrors } from '../../../lib/api-client.ts';
import { useInviteMember } from '../api/members.ts';
import { ClientPicker } from './client-picker.tsx';
import { roleTexts } from './role-texts.ts';

/** The invitation just made: its link to pass on, and whether it was mailed too. */
function InvitationLink({ email, path, mailed }: { email: string; path: string; mailed: boolean }) {
  const { t } = useI18n();
  const id = useId();
  const link = `${window.location.origin}${path}`;
  const [copied, setCopied] = useState<'yes' | 'failed' | null>(null);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(link);
      setCopied('yes');
    } catch {
      // No clipboard (plain HTTP on another host, or refused): the link is there to select.
      setCopied('failed');
    }
  };
  return (
    <div className="alert alert-success mt-3 mb-0" role="status">
      <p className="mb-2">
        {mailed ? t('books.invite.mailed', { email }) : t('books.invite.not-mailed', { email })}
      </p>
      <div className="input-group input-group-sm">
        <input
          id={id}
          className="form-control font-monospace"
          readOnly
          aria-label={t('books.invite.link')}
          value={link}
          onFocus={(event) => event.target.select()}
        />
        <button type="button" className="btn btn-outline-secondary" onClick={() => void copy()}>
          {copied === 'yes' ? t('books.invite.copied') : t('books.invite.copy')}
        </button>
      </div>
      {copied === 'failed' && <p className="small mb-0 mt-1">{t('books.invite.copy-refused')}</p>}
    </div>
  );
}

/** A role to give, with a collector's clients: shared by the invitation and a member's change. */
export function RoleFields({
  role,
  clientIds,
  onRole,
  onClients,
  clientsMissing,
}: {
  role: BookRole;
  clientIds: string[];
  onRole: (role: BookRole) => void;
  onClients: (clientIds: string[]) => void;
  clientsMissing: boolean;
}) {
  const { t } = useI18n();
  const id = useId();
  const roles = roleTexts(t);
  return (
    <>
      <div className="mb-3">
        <label htmlFor={id} className="form-label">
          {t('books.invite.role')}
        </label>
        <select
          id={id}
          className="form-select"
          value={role}
          aria-describedby={`${id}-help`}
          onChange={(event) => {
            const chosen = bookRoles.find((option) => option === event.target.value);
            if (chosen) onRole(chosen);
          }}
        >
          {bookRoles.map((option) => (
            <option key={option} value={option}>
              {roles[option].name}
            </option>
          ))}
        </select>
        <div id={`${id}-help`} className="form-text">
          {roles[role].help}
        </div>
      </div>
      {role === 'collector' && (
        <ClientPicker chosen={clientIds} onChange={onClients} invalid={clientsMissing} />
      )}
    </>
  );
}

interface InviteValues {
  email: string;
  role: BookRole;
  clientIds?: string[] | undefined;
}

/** The owner's "Invite someone": an e-mail, a role, and for a collector their clients. */
export function InviteForm() {
  const { t, message } = useI18n();
  const invite = useInviteMember();
  const {
    register,
    handleSubmit,
    setError,
    clearErrors,
    setValue,
    control,
    reset,
    formState: { errors, isSubmitted, isSubmitting },
  } = useForm<InviteValues>({
    resolver: zodResolver(inviteBodySchema),
    defaultValues: { email: '', role: 'bookkeeper', clientIds: [] },
  });
  const role = useWatch({ control, name: 'role' });
  const clientIds = useWatch({ control, name: 'clientIds' }) ?? [];
  const error = invite.error instanceof ApiError ? invite.error : null;

  const onSubmit = handleSubmit(async ({ email, role: chosen, clientIds: chosenClients = [] }) => {
    // The schema lets any role name clients; a collector without any would see nothing.
    if (chosen === 'collector' && chosenClients.length === 0) {
      setError('clientIds', { type: 'required' });
      return;
    }
    try {
      await invite.mutateAsync({ email, role: chosen, clientIds: chosenClients });
    } catch (failure) {
      if (!(failure instanceof ApiError)) throw failure;
      setServerFieldErrors(failure, ['email'] as const, setError);
      return;
    }
    reset({ email: '', role: chosen, clientIds: [] });
  });

  return (
    <form
      noValidate
      aria-label={t('books.invite.title')}
      onSubmit={(event) => void onSubmit(event)}
    >
      <h3 className="h6">{t('books.invite.title')}</h3>
      {error && !error.fields.email && (
        <div className="alert alert-danger py-2" role="alert">
          {message(error.message)}
        </div>
      )}
      <FormField
        label={t('books.invite.email')}
        type="email"
        autoComplete="off"
        registration={register('email')}
        error={errors.email}
        showError={isSubmitted}
      />
      <RoleFields
        role={role}
        clientIds={clientIds}
        onRole={(chosen) => setValue('role', chosen)}
        onClients={(chosen) => {
          setValue('clientIds', chosen);
          clearErrors('clientIds');
        }}
        clientsMissing={errors.clientIds !== undefined}
      />
      <button type="submit" className="btn btn-primary" disabled={isSubmitting}>
        {t('books.invite.submit')}
      </button>
      {invite.isSuccess && (
        <InvitationLink
          email={invite.data.invitation.email}
          path={invite.data.path}
          mailed={invite.data.mailed}
        />
      )}
    </form>
  );
}
