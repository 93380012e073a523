import { useId, useState } from 'react';
import { useForm } from 'react-hook-form';
import { Link, useLocation, useNavigate } from 'react-router';
import { zodResolver } from '@hookform/resolvers/zod';
import { z } from 'zod/mini';
import { newPasswordField } from '../../../../shared/schemas/auth.ts';
import type { InvitationView } from '../../../../shared/schemas/members.ts';
import { useDocumentTitle } from '../../../components/document-title.ts';
import { useFlash } from '../../../components/flash.tsx';
import { FormField } from '../../../components/form-field.tsx';
import { PageLoading } from '../../../components/page-status.tsx';
import { useI18n } from '../../../i18n/use-i18n.ts';
import { ApiError, setServerFieldErrors } from '../../../lib/api-client.ts';
import { loginPathFor } from '../../../lib/next-path.ts';
import { useSessionEmail } from '../api/invitation-session.ts';
import { useAcceptInvitation, useInvitation } from '../api/invitation.ts';
import { roleTexts } from './role-texts.ts';

const passwordSchema = z.object({ password: newPasswordField });

/** Who invites whom to which book, as what, and until when. */
function InvitationFacts({ invitation }: { invitation: InvitationView }) {
  const { t, format } = useI18n();
  const role = roleTexts(t)[invitation.role];
  return (
    <dl className="row mb-3">
      <dt className="col-sm-4">{t('books.invitation.book')}</dt>
      <dd className="col-sm-8 text-break">{invitation.bookName}</dd>
      {invitation.invitedBy !== null && (
        <>
          <dt className="col-sm-4">{t('books.invitation.invited-by')}</dt>
          <dd className="col-sm-8 text-break">{invitation.invitedBy}</dd>
        </>
      )}
      <dt className="col-sm-4">{t('books.invitation.email')}</dt>
      <dd className="col-sm-8 text-break">{invitation.email}</dd>
      <dt className="col-sm-4">{t('books.invitation.role')}</dt>
      <dd className="col-sm-8">
        {role.name}
        <div className="small text-body-secondary">{role.help}</div>
      </dd>
      <dt className="col-sm-4">{t('books.invitation.expires')}</dt>
      <dd className="col-sm-8">{format.moment(invitation.expiresAt)}</dd>
    </dl>
  );
}

/** A newcomer accepts by choosing a password, with the join form's rules. */
function CreateAccount({
  invitation,
  onAccept,
}: {
  invitation: InvitationView;
  onAccept: (password: string) => Promise<unknown>;
}) {
  const { t, message } = useI18n();
  const emailId = useId();
  const [serverError, setServerError] = useState<string | null>(null);
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors, touchedFields, isSubmitted, isSubmitting },
  } = useForm<{ password: string }>({
    resolver: zodResolver(passwordSchema),
    mode: 'onTouched', // i18n-ignore: a react-hook-form option
    defaultValues: { password: '' },
  });
  const submit = handleSubmit(async ({ password }) => {
    setServerError(null);
    try {
      await onAccept(password);
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      setServerError(message(error.message));
      setServerFieldErrors(error, ['password'] as const, setError);
    }
  });
  return (
    <form noValidate onSubmit={(event) => void submit(event)}>
      <p className="form-text mt-0">{t('books.invitation.choose-password')}</p>
      {serverError && (
        <div className="alert alert-danger py-2" role="alert">
          {serverError}
        </div>
      )}
      {/* For a password manager, which keeps the password with this e-mail. */}
      <div className="mb-3">
        <label htmlFor={emailId} className="form-label">
          {t('books.invitation.email')}
        </label>
        <input
          id={emailId}
          className="form-control"
          type="email"
          autoComplete="username"
          readOnly
          value={invitation.email}
        />
      </div>
      <FormField
        label={t('books.invitation.password')}
        type="password"
        autoComplete="new-password"
        registration={register('password')}
        error={errors.password}
        showError={isSubmitted || touchedFields.password === true}
      />
      <button type="submit" className="btn btn-primary w-100" disabled={isSubmitting}>
        {t('books.invitation.create')}
      </button>
    </form>
  );
}

/**
 * /invitation/:token: the book, the inviter and the role; Accept for the invited person signed
 * in, a way to sign in and come back for one with an account, a password for one without.
 */
export function InvitationPage({ token }: { token: string }) {
  const { t, message } = useI18n();
  const location = useLocation();
  const navigate = useNavigate();
  const showFlash = useFlash();
  const invitation = useInvitation(token);
  const accept = useAcceptInvitation(token);
  const signedInAs = useSessionEmail();
  useDocumentTitle(t('books.invitation.page-title'));

  if (invitation.isPending || signedInAs === undefined) return <PageLoading />;
  if (invitation.isError) {
    return (
      <div className="text-center py-5" role="alert">
        <h1 className="h4">{t('books.invitation.invalid-title')}</h1>
        <p className="text-body-secondary">{message(invitation.error.message)}</p>
        <Link to="/">{t('books.invitation.back')}</Link>
      </div>
    );
  }
  const view = invitation.data;
  const accepted = async (password?: string) => {
    await accept.mutateAsync(password);
    showFlash(t('books.invitation.accepted', { book: view.bookName }), 'success');
    await navigate('/', { replace: true });
  };
  const forOther = signedInAs !== null && signedInAs.toLowerCase() !== view.email.toLowerCase();

  return (
    <div className="row justify-content-center">
      <div className="col-12 col-sm-10 col-md-8 col-lg-6">
        <div className="card">
          <div className="card-header">
            <h1 className="h5 mb-0 text-break">
              {t('books.invitation.title', { book: view.bookName })}
            </h1>
          </div>
          <div className="card-body">
            <InvitationFacts invitation={view} />
            {signedInAs !== null ? (
              <>
                {accept.error instanceof ApiError && (
                  <div className="alert alert-danger py-2" role="alert">
                    {message(accept.error.message)}
                  </div>
                )}
                <p className="small text-body-secondary text-break">
                  {forOther
                    ? t('books.invitation.other-account', {
                        email: view.email,
                        you: signedInAs,
                      })
                    : t('books.invitation.signed-in-as', { email: signedInAs })}
                </p>
                {!forOther && (
                  <button
                    type="button"
                    className="btn btn-primary w-100"
                    disabled={accept.isPending}
                    onClick={() => void accepted().catch(() => undefined)}
                  >
                    {t('books.invitation.accept')}
                  </button>
                )}
                {forOther && (
                  <Link to="/" className="btn btn-link w-100">
                    {t('books.invitation.back')}
                  </Link>
                )}
              </>
            ) : view.hasAccount ? (
              <>
                <p className="small text-body-secondary">{t('books.invitation.has-account')}</p>
                <Link to={loginPathFor(location)} className="btn btn-primary w-100">
                  {t('books.invitation.log-in')}
                </Link>
              </>
            ) : (
              <CreateAccount invitation={view} onAccept={(password) => accepted(password)} />
            )}
          </div>
        </div>
      </div>
    </div>
  );
}
