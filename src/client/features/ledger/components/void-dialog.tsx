import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import type { Client } from '../../../../shared/schemas/clients.ts';
import { voidInputSchema, type Entry, type VoidInput } from '../../../../shared/schemas/ledger.ts';
import { useFlash } from '../../../components/flash.tsx';
import { FormField } from '../../../components/form-field.tsx';
import { Modal } from '../../../components/modal.tsx';
import { ApiError } from '../../../lib/api-client.ts';
import { useI18n } from '../../../i18n/use-i18n.ts';
import { useVoidEntry } from '../api/entries.ts';
import { entryKindTexts } from '../../../components/entry-kind-texts.ts';

/**
 * Voids an entry with a reason. An entry of a closed period cannot be voided (issue 59): known
 * before trying when the book's lock date is (an owner's), else from the server's refusal, the
 * dialog then offers a correction dated today instead.
 */
export function VoidDialog({
  client,
  entry,
  lockDate,
  onClose,
  onCorrect,
}: {
  client: Client;
  entry: Entry | null;
  /** The day the book is closed up to, when this person may know it. */
  lockDate: string | null | undefined;
  onClose: () => void;
  /** Record a correction of the entry instead. */
  onCorrect: (entry: Entry) => void;
}) {
  const showFlash = useFlash();
  const voidEntry = useVoidEntry(client.id);
  const { t, format, message } = useI18n();
  const [refusal, setRefusal] = useState<string | null>(null);
  const { register, handleSubmit, setError, reset, formState } = useForm<VoidInput>({
    resolver: zodResolver(voidInputSchema),
    // Checked on submit: an error shown on blur would move Close from under the pointer.
    defaultValues: { reason: '' },
  });
  const { errors, isSubmitted, isSubmitting } = formState;
  const closed =
    entry !== null &&
    (refusal !== null || (lockDate !== null && lockDate !== undefined && entry.date <= lockDate));

  const close = () => {
    reset();
    setRefusal(null);
    onClose();
  };
  const correct = () => {
    if (!entry) return;
    close();
    onCorrect(entry);
  };
  const confirm = handleSubmit(async ({ reason }) => {
    if (!entry) return;
    try {
      await voidEntry.mutateAsync({ entryId: entry.id, reason });
    } catch (failure) {
      showFlash(t('clients.recording-failed'), 'danger');
      if (!(failure instanceof ApiError)) throw failure;
      if (failure.code === 'period_closed') return setRefusal(failure.message);
      // The dialog has one field: whatever the server says shows under it.
      setError('reason', { type: 'server', message: failure.fields.reason ?? failure.message });
      return;
    }
    showFlash(t('clients.void.done'), 'success');
    close();
  });

  return (
    <Modal
      open={entry !== null}
      title={closed ? t('clients.correction.cannot-void') : t('clients.void.title')}
      onClose={close}
      actions={
        closed ? (
          <button type="button" className="btn btn-sm btn-primary" onClick={correct}>
            {t('clients.correction.offer')}
          </button>
        ) : (
          <button
            type="button"
            className="btn btn-sm btn-danger"
            disabled={isSubmitting}
            onClick={() => void confirm()}
          >
            {t('clients.ledger.void')}
          </button>
        )
      }
    >
      {entry && closed && (
        <div data-testid="void-refused">
          <p className="small mb-0" role="alert">
            {refusal !== null
              ? message(refusal)
              : t('clients.correction.closed', { date: format.day(lockDate ?? '') })}
          </p>
        </div>
      )}
      {entry && !closed && (
        <form noValidate onSubmit={(event) => void confirm(event)}>
          <p className="small mb-1">
            {t('clients.void.reverses', {
              kind: entryKindTexts(t)[entry.kind].inSentence,
              amount: format.money(Math.abs(entry.amount), entry.currency),
            })}
          </p>
          <FormField
            className=""
            label={t('clients.void.reason')}
            hideLabel
            small
            placeholder={t('clients.void.reason')}
            autoComplete="off"
            registration={register('reason')}
            error={errors.reason}
            showError={isSubmitted}
          />
        </form>
      )}
    </Modal>
  );
}
