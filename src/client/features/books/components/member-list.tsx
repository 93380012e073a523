import { useState } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import type { BookRole } from '../../../../shared/schemas/books.ts';
import { memberBodySchema, type BookMember } from '../../../../shared/schemas/members.ts';
import { useFlash } from '../../../components/flash.tsx';
import { Modal } from '../../../components/modal.tsx';
import { useI18n } from '../../../i18n/use-i18n.ts';
import { ApiError } from '../../../lib/api-client.ts';
import { useChangeMember, useRemoveMember } from '../api/members.ts';
import { RoleFields } from './invite-form.tsx';
import { roleTexts } from './role-texts.ts';

/** One member's new role (and a collector's clients), saved or given up. */
function ChangeMember({ member, onDone }: { member: BookMember; onDone: () => void }) {
  const { t, message } = useI18n();
  const showFlash = useFlash();
  const change = useChangeMember();
  const {
    handleSubmit,
    setError,
    clearErrors,
    setValue,
    control,
    formState: { errors, isSubmitting },
  } = useForm<{ role: BookRole; clientIds?: string[] | undefined }>({
    resolver: zodResolver(memberBodySchema),
    defaultValues: { role: member.role, clientIds: member.clientIds },
  });
  const role = useWatch({ control, name: 'role' });
  const clientIds = useWatch({ control, name: 'clientIds' }) ?? [];
  const onSubmit = handleSubmit(async ({ role: chosen, clientIds: chosenClients = [] }) => {
    if (chosen === 'collector' && chosenClients.length === 0) {
      setError('clientIds', { type: 'required' });
      return;
    }
    try {
      await change.mutateAsync({ userId: member.userId, role: chosen, clientIds: chosenClients });
    } catch (failure) {
      if (!(failure instanceof ApiError)) throw failure;
      return;
    }
    showFlash(t('books.people.changed', { email: member.email }), 'success');
    onDone();
  });
  return (
    <form
      noValidate
      className="border rounded p-3 mt-2"
      aria-label={t('books.people.change-title', { email: member.email })}
      onSubmit={(event) => void onSubmit(event)}
    >
      {change.error instanceof ApiError && (
        <div className="alert alert-danger py-2" role="alert">
          {message(change.error.message)}
        </div>
      )}
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
      <div className="d-flex gap-2">
        <button type="submit" className="btn btn-sm btn-primary" disabled={isSubmitting}>
          {t('books.people.save')}
        </button>
        <button type="button" className="btn btn-sm btn-outline-secondary" onClick={onDone}>
          {t('books.people.cancel')}
        </button>
      </div>
    </form>
  );
}

/** The book's members: e-mail, role (a collector's clients counted), and the owner's actions. */
export function MemberList({ members }: { members: BookMember[] }) {
  const { t, message } = useI18n();
  const showFlash = useFlash();
  const remove = useRemoveMember();
  const roles = roleTexts(t);
  const [changing, setChanging] = useState<string | null>(null);
  const [removing, setRemoving] = useState<BookMember | null>(null);

  const confirmRemove = () => {
    if (!removing) return;
    const { userId, email } = removing;
    remove.mutate(userId, {
      onSuccess: () => showFlash(t('books.people.removed', { email }), 'success'),
      onError: (error) => {
        if (error instanceof ApiError) showFlash(message(error.message), 'danger');
      },
      onSettled: () => setRemoving(null),
    });
  };

  return (
    <>
      <ul className="list-group mb-3" aria-label={t('books.people.members')}>
        {members.map((member) => (
          <li key={member.userId} className="list-group-item">
            <div className="d-flex flex-wrap align-items-center justify-content-between gap-2">
              <div className="text-break">
                <span className="fw-semibold">{member.email}</span>
                {member.isYou && (
                  <span className="badge text-bg-secondary ms-2">{t('books.people.you')}</span>
                )}
                <div className="small text-body-secondary">
                  {roles[member.role].name}
                  {member.role === 'collector' &&
                    ` · ${t('books.people.client-count', { count: member.clientIds.length })}`}
                </div>
              </div>
              {!member.isYou && (
                <div className="d-flex gap-2">
                  <button
                    type="button"
                    className="btn btn-sm btn-outline-primary"
                    aria-expanded={changing === member.userId}
                    aria-label={t('books.people.change-title', { email: member.email })}
                    onClick={() =>
                      setChanging((open) => (open === member.userId ? null : member.userId))
                    }
                  >
                    {t('books.people.change')}
                  </button>
                  <button
                    type="button"
                    className="btn btn-sm btn-outline-danger"
                    aria-label={t('books.people.remove-title', { email: member.email })}
                    onClick={() => setRemoving(member)}
                  >
                    {t('books.people.remove')}
                  </button>
                </div>
              )}
            </div>
            {changing === member.userId && (
              <ChangeMember member={member} onDone={() => setChanging(null)} />
            )}
          </li>
        ))}
      </ul>
      <Modal
        open={removing !== null}
        title={t('books.people.remove-title', { email: removing?.email ?? '' })}
        onClose={() => setRemoving(null)}
        actions={
          <button
            type="button"
            className="btn btn-sm btn-danger"
            disabled={remove.isPending}
            onClick={confirmRemove}
          >
            {t('books.people.remove')}
          </button>
        }
      >
        <p className="mb-0 small">{t('books.people.remove-text')}</p>
      </Modal>
    </>
  );
}
