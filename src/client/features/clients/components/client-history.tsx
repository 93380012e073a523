import type { ClientSnapshot } from '../../../../shared/schemas/clients.ts';
import type { EntryDetail, HistoryEntry } from '../../../../shared/schemas/events.ts';
import type { ReminderDetail } from '../../../../shared/schemas/reminders.ts';
import { reminderStepText } from '../../../components/reminder-step.ts';
import { useI18n } from '../../../i18n/use-i18n.ts';
import { entryKindTexts } from '../../../components/entry-kind-texts.ts';

type Texts = Pick<ReturnType<typeof useI18n>, 't' | 'format'>;

/** The fields an edit may change, in the order the form shows them, by their labels. */
function fieldLabels(t: Texts['t']): Record<keyof ClientSnapshot, string> {
  return {
    firstName: t('clients.field.first-name'),
    lastName: t('clients.field.last-name'),
    email: t('clients.field.email'),
    phone: t('clients.field.phone'),
    balance: t('clients.field.balance'),
    currency: t('clients.field.currency'),
    company: t('clients.field.company'),
    addressLine1: t('clients.field.address-line1'),
    addressLine2: t('clients.field.address-line2'),
    city: t('clients.field.city'),
    postcode: t('clients.field.postcode'),
    country: t('clients.field.country'),
    taxId: t('clients.field.tax-id'),
    notes: t('clients.field.notes'),
  };
}

/** What an edit may change that the ledger does not show: its balance and currency are entries. */
const detailFields = [
  'firstName',
  'lastName',
  'email',
  'phone',
  'company',
  'addressLine1',
  'addressLine2',
  'city',
  'postcode',
  'country',
  'taxId',
  'notes',
] as const;

// An event recorded before clients could be businesses has no company: none.
const changedDetails = (before: ClientSnapshot, after: ClientSnapshot) =>
  detailFields.filter((field) => (before[field] ?? '') !== (after[field] ?? ''));

/**
 * An edit that gave the opening balance new terms (its date, due date or reference): the ledger
 * shows the opening as it is now, not that it changed. With a new currency the opening is a new
 * entry, which the ledger shows.
 */
const openingTermsChanged = (entry: HistoryEntry) =>
  entry.action === 'edited' &&
  entry.entry?.kind === 'opening' &&
  entry.before?.currency === entry.after?.currency;

/** An entry's name: its kind, and the owner's reference when it has one. */
const entryName = (detail: EntryDetail, t: Texts['t']) => {
  const kind = entryKindTexts(t)[detail.kind].label;
  return detail.reference
    ? t('clients.history.kind-with-reference', { kind, reference: detail.reference })
    : kind;
};

/** What a reminder named: "overdue 2 of 3" and its charges by reference ("INV-7, INV-9"). */
function reminderText(
  action: 'reminder_sent' | 'reminder_failed',
  detail: ReminderDetail,
  overdueMax: number | null,
  t: Texts['t'],
) {
  const references = detail.charges.map((charge) => charge.reference);
  const values = {
    email: detail.sentTo,
    step: reminderStepText(detail.step, overdueMax, t),
    charges: references.every(Boolean)
      ? references.join(', ')
      : t('clients.history.reminder-charges', { count: detail.charges.length }),
    error: detail.error ?? '',
  };
  if (action === 'reminder_failed') return t('clients.history.reminder-failed', values);
  return detail.by === 'hand'
    ? t('clients.history.reminder-marked-sent', values)
    : t('clients.history.reminder-sent', values);
}

/** The actions the ledger above already shows as entries. */
const ledgerActions = new Set<string>(['entry_recorded', 'entry_voided', 'balance_changed']);

/**
 * What the History card adds to the ledger: the client's details, sends and the like. An edit
 * that only set the balance or the currency is left out (the ledger holds its adjustment); one
 * saved with nothing changed stays, as the owner did save it.
 */
function beyondLedger(entries: readonly HistoryEntry[]): HistoryEntry[] {
  return entries.filter((entry) => {
    if (ledgerActions.has(entry.action)) return false;
    if (entry.action !== 'edited' || !entry.before || !entry.after) return true;
    if (openingTermsChanged(entry)) return true;
    const savedUnchanged = (Object.keys(entry.after) as (keyof ClientSnapshot)[]).every(
      (field) => entry.before?.[field] === entry.after?.[field],
    );
    return savedUnchanged || changedDetails(entry.before, entry.after).length > 0;
  });
}

/**
 * A sentence for each change; one this version does not know is still shown, plainly.
 * `overdueMax` is the reminder plan's K, for "overdue 2 of 3" (null: not known).
 */
function describe(
  entry: HistoryEntry,
  { t, format }: Texts,
  overdueMax: number | null = null,
): string {
  const { before, after } = entry;
  const money = (snapshot: ClientSnapshot) => format.money(snapshot.balance, snapshot.currency);
  const entryText = (detail: EntryDetail) => {
    const values = {
      kind: entryName(detail, t),
      amount: format.money(Math.abs(detail.amount), detail.currency),
      note: detail.note,
    };
    return detail.note
      ? t('clients.history.entry-recorded-with-note', values)
      : t('clients.history.entry-recorded', values);
  };
  // A change of the ledger says what it did to the balance, when both sides are known.
  const withBalance = (change: string) =>
    before && after
      ? t('clients.history.with-balance', { change, before: money(before), after: money(after) })
      : change;

  switch (entry.action) {
    case 'entry_recorded':
      return entry.entry
        ? withBalance(entryText(entry.entry))
        : t('clients.history.some-entry-recorded');
    case 'entry_voided':
      if (!entry.entry) return t('clients.history.entry-voided');
      return withBalance(
        entry.entry.note
          ? t('clients.history.entry-voided-with-note', { note: entry.entry.note })
          : t('clients.history.entry-voided'),
      );
    case 'created':
      if (after && entry.entry?.reference)
        return t('clients.history.added-with-opening', {
          balance: money(after),
          opening: entryName(entry.entry, t),
        });
      return after
        ? t('clients.history.added-with-balance', { balance: money(after) })
        : t('clients.history.added');
    case 'imported':
      return after
        ? t('clients.history.imported-with-balance', { balance: money(after) })
        : t('clients.history.imported');
    case 'restored':
      return after
        ? t('clients.history.restored-with-balance', { balance: money(after) })
        : t('clients.history.restored');
    case 'statement_sent':
      return after
        ? t('clients.history.statement-sent-to', { email: after.email })
        : t('clients.history.statement-sent');
    case 'link_created':
      return t('clients.history.link-created');
    case 'link_revoked':
      return t('clients.history.link-revoked');
    case 'link_opened':
      return t('clients.history.link-opened');
    case 'language_set':
      return t('clients.history.language-set');
    case 'reminder_sent':
    case 'reminder_failed':
      return entry.reminder
        ? reminderText(entry.action, entry.reminder, overdueMax, t)
        : t('clients.history.changed');
    case 'reminders_changed':
      return t('clients.history.reminders-changed');
    // The book's own changes, not a client's: named plainly should one ever be listed here.
    case 'members_changed':
      return t('clients.history.members-changed');
    case 'lock_date_set':
      return entry.closing?.lockDate
        ? t('clients.history.lock-date-set', { date: format.day(entry.closing.lockDate) })
        : t('clients.history.lock-date-cleared');
    case 'deleted':
      return before
        ? t('clients.history.deleted-with-balance', { balance: money(before) })
        : t('clients.history.deleted');
    case 'balance_changed':
      return before && after
        ? t('clients.history.balance-changed-from-to', {
            before: money(before),
            after: money(after),
          })
        : t('clients.history.balance-changed');
    case 'edited': {
      if (!before || !after) return t('clients.history.edited');
      const labels = fieldLabels(t);
      const changed = changedDetails(before, after);
      const opening = openingTermsChanged(entry) && entry.entry;
      const openingText = !opening
        ? null
        : opening.dueDate
          ? t('clients.history.opening-terms-due', {
              opening: entryName(opening, t),
              date: format.day(opening.date),
              due: format.day(opening.dueDate),
            })
          : t('clients.history.opening-terms', {
              opening: entryName(opening, t),
              date: format.day(opening.date),
            });
      if (changed.length === 0) return openingText ?? t('clients.history.saved-unchanged');
      const changes = changed.map((field) =>
        // Notes may be long: said to have changed, not quoted.
        field === 'notes'
          ? t('clients.history.notes-changed')
          : t('clients.history.field-changed', {
              field: labels[field],
              before: before[field] ?? '',
              after: after[field] ?? '',
            }),
      );
      if (openingText) changes.push(openingText);
      return t('clients.history.edited-fields', { changes: changes.join('; ') });
    }
    default:
      return t('clients.history.changed');
  }
}

/** The client's history beside the ledger: only what the ledger does not show. */
export function ClientHistory({
  entries,
  overdueMax = null,
  severalPeople = false,
}: {
  entries: HistoryEntry[];
  overdueMax?: number | null;
  /** Who made each change is said once someone else keeps the book too. */
  severalPeople?: boolean;
}) {
  const texts = useI18n();
  const { t, format } = texts;
  const shown = beyondLedger(entries);
  return (
    <section aria-labelledby="history-heading" className="mt-4">
      <h2 id="history-heading" className="h6">
        {t('clients.history.heading')}
      </h2>
      {/* What the card holds, so the money recorded above is not looked for here (issue 56). */}
      <p id="history-holds" className="text-body-secondary small mb-2">
        {t('clients.history.holds')}
      </p>
      {shown.length === 0 ? (
        <p className="text-body-secondary small">{t('clients.history.only-ledger')}</p>
      ) : (
        <ol
          className="list-group"
          aria-label={t('clients.history.label')}
          aria-describedby="history-holds"
        >
          {shown.map((entry) => (
            <li key={entry.id} className="list-group-item d-flex flex-column flex-sm-row gap-sm-3">
              <time dateTime={entry.at} className="text-body-secondary text-nowrap small">
                {format.moment(entry.at)}
              </time>
              <span>
                {describe(entry, texts, overdueMax)}
                {severalPeople && entry.by && (
                  <span className="d-block text-body-secondary small" data-testid="history-by">
                    {t('clients.history.by', { email: entry.by })}
                  </span>
                )}
              </span>
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}
