import { useEffect, useMemo, useRef, useState } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { localToday } from '../../../../shared/dates.ts';
import { currencyLabel, toDecimalText } from '../../../../shared/money.ts';
import type { Client } from '../../../../shared/schemas/clients.ts';
import {
  defaultPaymentMethod,
  entryFormSchema,
  entryNoteMaxLength,
  entryReferenceMaxLength,
  parseEntryAmount,
  type Entry,
  type EntryForm as EntryFormValues,
  type RecordedKind,
} from '../../../../shared/schemas/ledger.ts';
import { entryKindTexts } from '../../../components/entry-kind-texts.ts';
import { useFlash } from '../../../components/flash.tsx';
import { FormField } from '../../../components/form-field.tsx';
import { ApiError, setServerFieldErrors } from '../../../lib/api-client.ts';
import { useI18n } from '../../../i18n/use-i18n.ts';
import { useRecordEntry } from '../api/entries.ts';
import { MethodField } from './method-field.tsx';
import { entryFormTexts } from './entry-texts.ts';

// i18n-ignore: the form's field names, not shown
const fieldNames = ['amount', 'date', 'dueDate', 'note', 'reference', 'method'] as const;
type FieldName = (typeof fieldNames)[number];

/** The same day a year later (or earlier, with -1): both YYYY-MM-DD, compared as text. */
const yearsFrom = (day: string, years: number) =>
  `${String(Number(day.slice(0, 4)) + years).padStart(4, '0')}${day.slice(4)}`;

interface Check {
  field: FieldName;
  text: string;
}

/**
 * The small form behind "Record payment", "Add charge" and "Add credit". What is likely a slip
 * (a payment above what is owed, a day more than a year away) is recorded only once confirmed.
 */
export function EntryForm({
  client,
  kind,
  corrects,
  onDone,
}: {
  client: Client;
  kind: RecordedKind;
  /** The entry of a closed period this one puts right, in the open one (issue 59). */
  corrects?: Entry | undefined;
  /** Recorded, cancelled or closed with Escape. */
  onDone: () => void;
}) {
  const showFlash = useFlash();
  const recordEntry = useRecordEntry(client.id);
  const [serverError, setServerError] = useState<string | null>(null);
  const { t, message, format } = useI18n();
  // Shown instead of the form's buttons: what to confirm, and the entry it is about.
  const [checks, setChecks] = useState<{
    found: Check[];
    values: EntryFormValues;
    amount: number;
  } | null>(null);
  const recordAnyway = useRef<HTMLButtonElement>(null);
  const schema = useMemo(() => entryFormSchema(client.currency, localToday), [client.currency]);
  const {
    register,
    handleSubmit,
    setError,
    setFocus,
    setValue,
    formState: { errors, touchedFields, isSubmitted, isSubmitting },
  } = useForm<EntryFormValues>({
    resolver: zodResolver(schema),
    mode: 'onTouched', // i18n-ignore: a react-hook-form mode
    defaultValues: {
      amount: corrects ? toDecimalText(Math.abs(corrects.amount), client.currency) : '',
      date: localToday(),
      dueDate: '',
      note: '',
      reference: '',
      method: defaultPaymentMethod,
    },
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
  const texts = entryFormTexts({ t, format }, kind, corrects);
  useEffect(() => {
    if (checks) recordAnyway.current?.focus();
  }, [checks]);

  /** What deserves a second look before it becomes money. */
  const checksFor = (values: EntryFormValues, amount: number): Check[] => {
    const today = localToday();
    const found: Check[] = [];
    if (kind === 'payment' && amount > client.balance)
      found.push({
        field: 'amount',
        text: t('clients.entry.check-credit', {
          owed: format.money(Math.max(client.balance, 0), client.currency),
          credit: format.money(amount - Math.max(client.balance, 0), client.currency),
        }),
      });
    if (values.date < yearsFrom(today, -1))
      found.push({
        field: 'date',
        text: t('clients.entry.check-date-old', { date: format.day(values.date) }),
      });
    if (kind === 'charge' && values.dueDate !== '' && values.dueDate > yearsFrom(today, 1))
      found.push({
        field: 'dueDate',
        text: t('clients.entry.check-due-far', { date: format.day(values.dueDate) }),
      });
    return found;
  };

  const record = async (values: EntryFormValues, amount: number) => {
    setServerError(null);
    try {
      await recordEntry.mutateAsync({
        kind,
        amount,
        date: values.date,
        note: values.note,
        ...(values.reference !== '' ? { reference: values.reference } : {}),
        ...(kind === 'charge' && values.dueDate !== '' ? { dueDate: values.dueDate } : {}),
        ...(kind === 'payment' ? { method: values.method } : {}),
        ...(corrects ? { corrects: corrects.id } : {}),
      });
    } catch (error) {
      showFlash(t('clients.recording-failed'), 'danger');
      setChecks(null);
      if (!(error instanceof ApiError)) throw error;
      setServerFieldErrors(error, fieldNames, setError);
      if (Object.keys(error.fields).length === 0) setServerError(error.message);
      return;
    }
    showFlash(texts.done, 'success');
    onDone();
  };

  const submit = handleSubmit(async (values) => {
    const amount = parseEntryAmount(values.amount, client.currency);
    if (!amount.ok) return setError('amount', { type: 'parse', message: amount.error });
    const found = checksFor(values, amount.minor);
    if (found.length > 0) return setChecks({ found, values, amount: amount.minor });
    await record(values, amount.minor);
  });

  const changeIt = () => {
    const first = checks?.found[0];
    setChecks(null);
    if (first) setFocus(first.field);
  };

  return (
    <form
      className="card card-body mt-3"
      aria-label={texts.action}
      noValidate
      onSubmit={(event) => void submit(event)}
      // What the checks were about has changed: they are asked again on the next submit.
      onChange={() => setChecks(null)}
      onKeyDown={(event) => {
        if (event.key !== 'Escape') return; // i18n-ignore: a key's name
        event.stopPropagation();
        if (checks) changeIt();
        else onDone();
      }}
    >
      <h2 className="h6">{texts.action}</h2>
      {corrects && (
        <p className="small text-body-secondary mb-2">
          {t('clients.correction.as', { kind: entryKindTexts(t)[kind].inSentence })}
        </p>
      )}
      {/* Above the fields: an error appearing under the amount must not move it from the pointer. */}
      {kind === 'payment' && client.balance > 0 && (
        <p className="mb-2">
          <button
            type="button"
            className="btn btn-link btn-sm p-0"
            onClick={() => {
              setValue('amount', toDecimalText(client.balance, client.currency), {
                shouldValidate: true,
              });
              setChecks(null);
              setFocus('amount');
            }}
          >
            {t('clients.entry.pay-full', {
              amount: format.money(client.balance, client.currency),
            })}
          </button>
        </p>
      )}
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
        {kind === 'payment' && (
          <MethodField className="col-12 col-sm-6 mb-3" registration={register('method')} />
        )}
        <FormField
          className="col-12 col-sm-6 mb-3"
          label={t('clients.entry.reference')}
          autoComplete="off"
          maxLength={entryReferenceMaxLength}
          {...field('reference')}
        />
      </div>
      <FormField
        label={t('clients.entry.note')}
        autoComplete="off"
        maxLength={entryNoteMaxLength}
        {...field('note')}
      />
      {checks ? (
        <div className="alert alert-warning py-2 mb-0">
          <div role="alert">
            <p className="fw-semibold mb-1">{t('clients.entry.check-heading')}</p>
            <ul className="mb-2 ps-3">
              {checks.found.map((check) => (
                <li key={check.field}>{check.text}</li>
              ))}
            </ul>
          </div>
          <div className="d-flex flex-wrap gap-2">
            <button
              ref={recordAnyway}
              type="button"
              className="btn btn-warning btn-sm"
              disabled={recordEntry.isPending}
              onClick={() => void record(checks.values, checks.amount)}
            >
              {t('clients.entry.check-record')}
            </button>
            <button type="button" className="btn btn-outline-secondary btn-sm" onClick={changeIt}>
              {t('clients.entry.check-change')}
            </button>
          </div>
        </div>
      ) : (
        <div className="d-flex gap-2">
          <button type="submit" className="btn btn-primary btn-sm" disabled={isSubmitting}>
            {corrects ? t('clients.correction.record') : texts.action}
          </button>
          <button type="button" className="btn btn-outline-secondary btn-sm" onClick={onDone}>
            {t('clients.cancel')}
          </button>
        </div>
      )}
    </form>
  );
}
