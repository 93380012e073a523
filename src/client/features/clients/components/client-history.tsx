import { formatMoney } from '../../../../shared/money.ts';
import {
  clientFieldLabels as fieldLabels,
  type ClientSnapshot,
  type HistoryEntry,
} from '../../../../shared/schemas/clients.ts';

const dateFormat = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });

function money(snapshot: ClientSnapshot) {
  return formatMoney(snapshot.balance, snapshot.currency);
}

function describe(entry: HistoryEntry): string {
  const { before, after } = entry;
  switch (entry.action) {
    case 'created':
      return after ? `Added with a balance of ${money(after)}` : 'Added';
    case 'imported':
      return after ? `Imported with a balance of ${money(after)}` : 'Imported';
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
