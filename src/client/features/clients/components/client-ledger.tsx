import { useId, useState } from 'react';
import { formatMoney } from '../../../../shared/money.ts';
import type { Client } from '../../../../shared/schemas/clients.ts';
import { entryKindLabels, type Entry } from '../../../../shared/schemas/ledger.ts';
import { useFlash } from '../../../components/flash.tsx';
import { Modal } from '../../../components/modal.tsx';
import { ApiError } from '../../../lib/api-client.ts';
import { useVoidEntry } from '../api/mutations.ts';

// The dates are calendar days, not moments: formatted as such, whatever the device's time zone.
const dayFormat = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeZone: 'UTC' });
export const formatDay = (day: string) => dayFormat.format(new Date(`${day}T00:00:00Z`));

function describeEntry(entry: Entry, byId: Map<number, Entry>): string {
  if (entry.kind === 'void') {
    const original = entry.voidOf === null ? undefined : byId.get(entry.voidOf);
    const what = original
      ? `${entryKindLabels[original.kind].toLowerCase()} of ${formatDay(original.date)}`
      : 'an entry';
    return `Void of ${what}${entry.note ? `: ${entry.note}` : ''}`;
  }
  const parts: string[] = [entryKindLabels[entry.kind]];
  if (entry.note) parts.push(entry.note);
  if (entry.dueDate) parts.push(`due ${formatDay(entry.dueDate)}`);
  return parts.join(' · ');
}

function VoidDialog({
  client,
  entry,
  onClose,
}: {
  client: Client;
  entry: Entry | null;
  onClose: () => void;
}) {
  const reasonId = useId();
  const showFlash = useFlash();
  const voidEntry = useVoidEntry(client.id);
  const [reason, setReason] = useState('');
  const [error, setError] = useState<string | null>(null);

  const close = () => {
    setReason('');
    setError(null);
    onClose();
  };
  const confirm = async () => {
    if (!entry) return;
    if (reason.trim() === '') return setError('Enter a reason.');
    try {
      await voidEntry.mutateAsync({ entryId: entry.id, reason });
    } catch (failure) {
      showFlash('Recording Failed', 'danger');
      if (!(failure instanceof ApiError)) throw failure;
      setError(failure.fields.reason ?? failure.message);
      return;
    }
    showFlash('Entry voided', 'success');
    close();
  };

  return (
    <Modal
      open={entry !== null}
      title="Void entry?"
      onClose={close}
      actions={
        <button
          type="button"
          className="btn btn-sm btn-danger"
          disabled={voidEntry.isPending}
          onClick={() => void confirm()}
        >
          Void
        </button>
      }
    >
      {entry && (
        <form
          noValidate
          onSubmit={(event) => {
            event.preventDefault();
            void confirm();
          }}
        >
          <p className="small mb-1">
            Reverses the {entryKindLabels[entry.kind].toLowerCase()} of{' '}
            {formatMoney(Math.abs(entry.amount), entry.currency)}.
          </p>
          <label htmlFor={reasonId} className="visually-hidden">
            Reason
          </label>
          <input
            id={reasonId}
            className={`form-control form-control-sm${error ? ' is-invalid' : ''}`}
            placeholder="Reason"
            autoComplete="off"
            value={reason}
            onChange={(event) => setReason(event.target.value)}
            aria-invalid={error !== null}
            aria-describedby={error ? `${reasonId}-error` : undefined}
          />
          {error && (
            <div id={`${reasonId}-error`} className="invalid-feedback">
              {error}
            </div>
          )}
        </form>
      )}
    </Modal>
  );
}

/** The client's entries, newest first, each with the balance after it. */
export function ClientLedger({ client, entries }: { client: Client; entries: Entry[] }) {
  const [voiding, setVoiding] = useState<Entry | null>(null);
  const byId = new Map(entries.map((entry) => [entry.id, entry]));

  return (
    <section aria-labelledby="ledger-heading" className="mt-4">
      <h2 id="ledger-heading" className="h6">
        Ledger
      </h2>
      {entries.length === 0 ? (
        <p className="text-body-secondary small">No entries yet.</p>
      ) : (
        // On a phone the date moves under the entry and the running balance under the amount,
        // so the three columns left fit the screen.
        <table className="table table-sm align-middle small">
          <caption className="visually-hidden">Entries, newest first</caption>
          <thead>
            <tr>
              <th scope="col" className="d-none d-sm-table-cell">
                Date
              </th>
              <th scope="col">Entry</th>
              <th scope="col" className="text-end">
                Amount
              </th>
              <th scope="col" className="text-end d-none d-sm-table-cell">
                Balance
              </th>
              <th scope="col">
                <span className="visually-hidden">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {entries.map((entry) => {
              const voided = entry.voidedBy !== null;
              const canVoid =
                entry.kind !== 'void' && !voided && entry.currency === client.currency;
              const running = formatMoney(BigInt(entry.runningBalance), entry.currency);
              return (
                <tr key={entry.id} data-testid="ledger-entry">
                  <td className="text-nowrap d-none d-sm-table-cell">{formatDay(entry.date)}</td>
                  <td className="text-break">
                    <div className="d-sm-none text-body-secondary">{formatDay(entry.date)}</div>
                    {describeEntry(entry, byId)}
                    {voided && <span className="badge text-bg-secondary ms-2">Voided</span>}
                  </td>
                  <td className="text-end text-nowrap">
                    <span
                      className={
                        voided ? 'text-decoration-line-through text-body-secondary' : undefined
                      }
                    >
                      {formatMoney(entry.amount, entry.currency)}
                    </span>
                    <div className="d-sm-none text-body-secondary">Balance {running}</div>
                  </td>
                  <td className="text-end text-nowrap d-none d-sm-table-cell">{running}</td>
                  <td className="text-end">
                    {canVoid && (
                      <button
                        type="button"
                        className="btn btn-link btn-sm p-0"
                        aria-label={`Void ${entryKindLabels[entry.kind].toLowerCase()} of ${formatDay(entry.date)}`}
                        onClick={() => setVoiding(entry)}
                      >
                        Void
                      </button>
                    )}
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      )}
      <VoidDialog client={client} entry={voiding} onClose={() => setVoiding(null)} />
    </section>
  );
}
