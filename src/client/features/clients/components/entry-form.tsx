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
import { useI18n } from '../../../i18n/use-i18n.ts';
import { useRecordEntry } from '../api/mutations.ts';

type Translate = ReturnType<typeof useI18n>['t'];

/** What each kind of entry is called on its button, its form and its confirmation. */
export function entryTexts(t: Translate): Record<RecordedKind, { action: string; done: string }> {
  return {
    payment: {
      action: t('clients.entry.payment.action'),
      done: t('clients.entry.payment.done'),
    },
    charge: { action: t('clients.entry.charge.action'), done: t('clients.entry.charge.done') },
    credit: { action: t('clients.entry.credit.action'), done: t('clients.entry.credit.done') },
  };
}

// i18n-ignore: the form's field names, not shown
const fieldNames = ['amount', 'date', 'dueDate', 'note'] as const;
type FieldName = (typeof fieldNames)[number];

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
  const { t, message } = useI18n();
  const schema = useMemo(() => entryFormSchema(client.currency, localToday), [client.currency]);
  const {
    register,
    handleSubmit,
    setError,
    setFocus,
    formState: { errors, touchedFields, isSubmitted, isSubmitting },
  } = useForm<EntryFormValues>({
    resolver: zodResolver(schema),
    mode: 'onTouched', // i18n-ignore: a react-hook-form mode
    defaultValues: { amount: '', date: localToday(), dueDate: '', note: '' },
  });
  // The amount is what the owner came to type: focus goes there as the form opens.
  useEffect(() => setFocus('amount'), [setFocus]);
  const shows = (name: FieldName) => isSubmitted || touchedFields[name] === true;
  /** A field's registration, its error in the shown language and whether to show it yet. */
  const field = (name: FieldName) => {
    const error = errors[name];
    return {
      registration: register(name),
      error: error && { ...error, message: message(error.message ?? '') },
      showError: shows(name),
    };
  };
  const texts = entryTexts(t)[kind];

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
      showFlash(t('clients.recording-failed'), 'danger');
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
          {message(serverError)}
        </div>
      )}
      <div className="row">
        <FormField
          className="col-12 col-sm-6 mb-3"
          label={t('clients.entry.amount', { currency: currencyLabel[client.currency] })}
          inputMode="decimal"
          autoComplete="off"
          placeholder="0"
          {...field('amount')}
        />
        <FormField
          className="col-12 col-sm-6 mb-3"
          label={t('clients.entry.date')}
          type="date"
          max={localToday()}
          {...field('date')}
        />
      </div>
      <div className="row">
        {kind === 'charge' && (
          <FormField
            className="col-12 col-sm-6 mb-3"
            label={t('clients.entry.due-date')}
            type="date"
            // i18n-ignore: a field's name
            {...field('dueDate')}
          />
        )}
        <FormField
          className={kind === 'charge' ? 'col-12 col-sm-6 mb-3' : 'col-12 mb-3'}
          label={t('clients.entry.note')}
          autoComplete="off"
          maxLength={entryNoteMaxLength}
          {...field('note')}
        />
      </div>
      <div className="d-flex gap-2">
        <button type="submit" className="btn btn-primary btn-sm" disabled={isSubmitting}>
          {texts.action}
        </button>
        <button type="button" className="btn btn-outline-secondary btn-sm" onClick={onDone}>
          {t('clients.cancel')}
        </button>
      </div>
    </form>
  );
}
