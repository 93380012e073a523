import { formatMoney } from '../../../../shared/money.ts';
import {
  clientFieldLabels as fieldLabels,
  type ClientSnapshot,
} from '../../../../shared/schemas/clients.ts';
import type { EntryDetail, HistoryEntry } from '../../../../shared/schemas/events.ts';
import { entryKindLabels } from '../../../../shared/schemas/ledger.ts';

const dateFormat = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });

function money(snapshot: ClientSnapshot) {
  return formatMoney(snapshot.balance, snapshot.currency);
}

function entryText(entry: EntryDetail): string {
  const amount = formatMoney(Math.abs(entry.amount), entry.currency);
  const note = entry.note ? ` (${entry.note})` : '';
  return `${entryKindLabels[entry.kind]} of ${amount}${note}`;
}

function balanceMove(before: ClientSnapshot | null, after: ClientSnapshot | null): string {
  return before && after ? `: balance ${money(before)} → ${money(after)}` : '';
}

/** A sentence for each change; one this version does not know is still shown, plainly. */
export function describe(entry: HistoryEntry): string {
  const { before, after } = entry;
  switch (entry.action) {
    case 'entry_recorded':
      return entry.entry
        ? `${entryText(entry.entry)} recorded${balanceMove(before, after)}`
        : 'Entry recorded';
    case 'entry_voided':
      return entry.entry
        ? `Entry voided${entry.entry.note ? ` (${entry.entry.note})` : ''}${balanceMove(before, after)}`
        : 'Entry voided';
    case 'created':
      return after ? `Added with a balance of ${money(after)}` : 'Added';
    case 'imported':
      return after ? `Imported with a balance of ${money(after)}` : 'Imported';
    case 'restored':
      return after ? `Restored from an export file with a balance of ${money(after)}` : 'Restored';
    case 'statement_sent':
      return after ? `Statement sent to ${after.email}` : 'Statement sent';
    case 'deleted':
      return before ? `Deleted (balance was ${money(before)})` : 'Deleted';
    case 'balance_changed':
      return before && after
        ? `Balance changed from ${money(before)} to ${money(after)}`
        : 'Balance changed';
    case 'edited': {
      if (!before || !after) return 'Edited';
      const changed = (Object.keys(fieldLabels) as (keyof ClientSnapshot)[]).filter(
        (field) => before[field] !== after[field],
      );
      if (changed.length === 0) return 'Saved without changes';
      return `Edited: ${changed
        .map((field) => {
          if (field === 'balance' || field === 'currency')
            return `${fieldLabels[field]} ${money(before)} → ${money(after)}`;
          return `${fieldLabels[field]} “${before[field]}” → “${after[field]}”`;
        })
        .join('; ')}`;
    }
    default:
      return 'Changed';
  }
}

export function ClientHistory({ entries }: { entries: HistoryEntry[] }) {
  return (
    <section aria-labelledby="history-heading" className="mt-4">
      <h2 id="history-heading" className="h6">
        History
      </h2>
      <ol className="list-group" aria-label="History, newest first">
        {entries.map((entry) => (
          <li key={entry.id} className="list-group-item d-flex flex-column flex-sm-row gap-sm-3">
            <time dateTime={entry.at} className="text-body-secondary text-nowrap small">
              {dateFormat.format(new Date(entry.at))}
            </time>
            <span>{describe(entry)}</span>
          </li>
        ))}
      </ol>
    </section>
  );
}
