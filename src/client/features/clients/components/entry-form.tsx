import { useEffect, useMemo, useState } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { localToday } from '../../../../shared/dates.ts';
import { currencyLabel } from '../../../../shared/money.ts';
import type { Client } from '../../../../shared/schemas/clients.ts';
import {
  entryFormSchema,
  entryNoteMaxLength,
  parseEntryAmount,
  type EntryForm as EntryFormValues,
  type RecordedKind,
} from '../../../../shared/schemas/ledger.ts';
import { useFlash } from '../../../components/flash.tsx';
import { FormField } from '../../../components/form-field.tsx';
import { ApiError, setServerFieldErrors } from '../../../lib/api-client.ts';
import { useRecordEntry } from '../api/mutations.ts';

/** What each kind of entry is called on its button, its form and its confirmation. */
export const entryTexts: Record<RecordedKind, { action: string; done: string }> = {
  payment: { action: 'Record payment', done: 'Payment recorded' },
  charge: { action: 'Add charge', done: 'Charge added' },
  credit: { action: 'Add credit', done: 'Credit added' },
};

const fieldNames = ['amount', 'date', 'dueDate', 'note'] as const;

/** The small form behind "Record payment", "Add charge" and "Add credit". */
export function EntryForm({
  client,
  kind,
  onDone,
}: {
  client: Client;
  kind: RecordedKind;
  onDone: () => void;
}) {
  const showFlash = useFlash();
  const recordEntry = useRecordEntry(client.id);
  const [serverError, setServerError] = useState<string | null>(null);
  const schema = useMemo(() => entryFormSchema(client.currency, localToday), [client.currency]);
  const {
    register,
    handleSubmit,
    setError,
    setFocus,
    formState: { errors, touchedFields, isSubmitted, isSubmitting },
  } = useForm<EntryFormValues>({
    resolver: zodResolver(schema),
    mode: 'onTouched',
    defaultValues: { amount: '', date: localToday(), dueDate: '', note: '' },
  });
  // The amount is what the owner came to type: focus goes there as the form opens.
  useEffect(() => setFocus('amount'), [setFocus]);
  const shows = (name: (typeof fieldNames)[number]) => isSubmitted || touchedFields[name] === true;
  const texts = entryTexts[kind];

  const submit = handleSubmit(async (values) => {
    setServerError(null);
    const amount = parseEntryAmount(values.amount, client.currency);
    if (!amount.ok) return setError('amount', { type: 'parse', message: amount.error });
    try {
      await recordEntry.mutateAsync({
        kind,
        amount: amount.minor,
        date: values.date,
        note: values.note,
        ...(kind === 'charge' && values.dueDate !== '' ? { dueDate: values.dueDate } : {}),
      });
    } catch (error) {
      showFlash('Recording Failed', 'danger');
      if (!(error instanceof ApiError)) throw error;
      setServerFieldErrors(error, fieldNames, setError);
      if (Object.keys(error.fields).length === 0) setServerError(error.message);
      return;
    }
    showFlash(texts.done, 'success');
    onDone();
  });

  return (
    <form
      className="card card-body mt-3"
      aria-label={texts.action}
      noValidate
      onSubmit={(event) => void submit(event)}
    >
      <h2 className="h6">{texts.action}</h2>
      {serverError && (
        <div className="alert alert-danger py-2" role="alert">
          {serverError}
        </div>
      )}
      <div className="row">
        <FormField
          className="col-12 col-sm-6 mb-3"
          label={`Amount (${currencyLabel[client.currency]})`}
          inputMode="decimal"
          autoComplete="off"
          placeholder="0"
          registration={register('amount')}
          error={errors.amount}
          showError={shows('amount')}
        />
        <FormField
          className="col-12 col-sm-6 mb-3"
          label="Date"
          type="date"
          max={localToday()}
          registration={register('date')}
          error={errors.date}
          showError={shows('date')}
        />
      </div>
      <div className="row">
        {kind === 'charge' && (
          <FormField
            className="col-12 col-sm-6 mb-3"
            label="Due date (optional)"
            type="date"
            registration={register('dueDate')}
            error={errors.dueDate}
            showError={shows('dueDate')}
          />
        )}
        <FormField
          className={kind === 'charge' ? 'col-12 col-sm-6 mb-3' : 'col-12 mb-3'}
          label="Note or reference (optional)"
          autoComplete="off"
          maxLength={entryNoteMaxLength}
          registration={register('note')}
          error={errors.note}
          showError={shows('note')}
        />
      </div>
      <div className="d-flex gap-2">
        <button type="submit" className="btn btn-primary btn-sm" disabled={isSubmitting}>
          {texts.action}
        </button>
        <button type="button" className="btn btn-outline-secondary btn-sm" onClick={onDone}>
          Cancel
        </button>
      </div>
    </form>
  );
}
