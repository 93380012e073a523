import type { ClientSnapshot } from '../../../../shared/schemas/clients.ts';
import type { EntryDetail, HistoryEntry } from '../../../../shared/schemas/events.ts';
import { useI18n } from '../../../i18n/use-i18n.ts';
import { entryKindTexts } from './entry-kind-texts.ts';

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
  };
}

/** A sentence for each change; one this version does not know is still shown, plainly. */
export function describe(entry: HistoryEntry, { t, format }: Texts): string {
  const { before, after } = entry;
  const money = (snapshot: ClientSnapshot) => format.money(snapshot.balance, snapshot.currency);
  const entryText = (detail: EntryDetail) => {
    const values = {
      kind: entryKindTexts(t)[detail.kind].label,
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
      const changed = (Object.keys(labels) as (keyof ClientSnapshot)[]).filter(
        (field) => before[field] !== after[field],
      );
      if (changed.length === 0) return t('clients.history.saved-unchanged');
      const changes = changed.map((field) =>
        field === 'balance' || field === 'currency'
          ? t('clients.history.amount-changed', {
              field: labels[field],
              before: money(before),
              after: money(after),
            })
          : t('clients.history.field-changed', {
              field: labels[field],
              before: before[field],
              after: after[field],
            }),
      );
      return t('clients.history.edited-fields', { changes: changes.join('; ') });
    }
    default:
      return t('clients.history.changed');
  }
}

export function ClientHistory({ entries }: { entries: HistoryEntry[] }) {
  const texts = useI18n();
  const { t, format } = texts;
  return (
    <section aria-labelledby="history-heading" className="mt-4">
      <h2 id="history-heading" className="h6">
        {t('clients.history.heading')}
      </h2>
      <ol className="list-group" aria-label={t('clients.history.label')}>
        {entries.map((entry) => (
          <li key={entry.id} className="list-group-item d-flex flex-column flex-sm-row gap-sm-3">
            <time dateTime={entry.at} className="text-body-secondary text-nowrap small">
              {format.moment(entry.at)}
            </time>
            <span>{describe(entry, texts)}</span>
          </li>
        ))}
      </ol>
    </section>
  );
}
