import type { BookInvitation } from '../../../../shared/schemas/members.ts';
import { useFlash } from '../../../components/flash.tsx';
import { useI18n } from '../../../i18n/use-i18n.ts';
import { ApiError } from '../../../lib/api-client.ts';
import { useRevokeInvitation } from '../api/members.ts';
import { roleTexts } from './role-texts.ts';

/** The invitations sent: whom, as what, their state, and Revoke while one still waits. */
export function InvitationList({ invitations }: { invitations: BookInvitation[] }) {
  const { t, message, format } = useI18n();
  const showFlash = useFlash();
  const revoke = useRevokeInvitation();
  const roles = roleTexts(t);
  const statusText: Record<BookInvitation['status'], string> = {
    pending: t('books.people.status-pending'),
    accepted: t('books.people.status-accepted'),
    revoked: t('books.people.status-revoked'),
    expired: t('books.people.status-expired'),
  };
  if (invitations.length === 0) return null;
  return (
    <>
      <h3 className="h6">{t('books.people.invitations')}</h3>
      <ul className="list-group mb-3" aria-label={t('books.people.invitations')}>
        {invitations.map((invitation) => (
          <li
            key={invitation.id}
            className="list-group-item d-flex flex-wrap align-items-center justify-content-between gap-2"
          >
            <div className="text-break">
              <span className="fw-semibold">{invitation.email}</span>
              <div className="small text-body-secondary">
                {roles[invitation.role].name} · {statusText[invitation.status]}
                {invitation.status === 'pending' &&
                  ` · ${t('books.people.expires', { date: format.moment(invitation.expiresAt) })}`}
              </div>
            </div>
            {invitation.status === 'pending' && (
              <button
                type="button"
                className="btn btn-sm btn-outline-danger"
                aria-label={t('books.people.revoke-title', { email: invitation.email })}
                disabled={revoke.isPending}
                onClick={() =>
                  revoke.mutate(invitation.id, {
                    onSuccess: () =>
                      showFlash(t('books.people.revoked', { email: invitation.email }), 'success'),
                    onError: (error) => {
                      if (error instanceof ApiError) showFlash(message(error.message), 'danger');
                    },
                  })
                }
              >
                {t('books.people.revoke')}
              </button>
            )}
          </li>
        ))}
      </ul>
    </>
  );
}
