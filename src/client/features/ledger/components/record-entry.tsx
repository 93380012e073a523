import { useRef, useState } from 'react';
import type { Client } from '../../../../shared/schemas/clients.ts';
import type { RecordedKind } from '../../../../shared/schemas/ledger.ts';
import { apiRoutes } from '../../../../shared/api-routes.ts';
import { useI18n } from '../../../i18n/use-i18n.ts';
import { useBookAccess } from '../../../lib/session-query.ts';
import { EntryForm } from './entry-form.tsx';
import { entryTexts } from './entry-texts.ts';

/** Payments first: what an owner records most. */
const entryButtons: RecordedKind[] = ['payment', 'charge', 'credit'];

/**
 * The client page's Payment, Charge and Credit buttons, each opening its form below them: all
 * three for who keeps the money, the payment alone for a collector, none for a viewer.
 */
export function RecordEntry({ client }: { client: Client }) {
  const [recording, setRecording] = useState<RecordedKind | null>(null);
  const { t } = useI18n();
  const can = useBookAccess();
  // A charge or a credit asks what a void does, keeping the money (the server says so too).
  const kinds = can(apiRoutes.voidEntry.access)
    ? entryButtons
    : can(apiRoutes.recordEntry.access)
      ? entryButtons.filter((kind) => kind === 'payment')
      : [];
  // Closing the form puts focus back on the button that opened it, not on the page's body.
  const entryOpeners = useRef(new Map<RecordedKind, HTMLButtonElement>());
  const closeEntryForm = () => {
    if (recording) entryOpeners.current.get(recording)?.focus();
    setRecording(null);
  };
  if (kinds.length === 0) return null;
  return (
    <>
      <div className="d-flex flex-wrap gap-2 mt-3">
        {kinds.map((kind) => (
          <button
            key={kind}
            type="button"
            className={`btn btn-sm ${kind === 'payment' ? 'btn-success' : 'btn-outline-primary'}`}
            ref={(button) => {
              if (button) entryOpeners.current.set(kind, button);
              else entryOpeners.current.delete(kind);
            }}
            aria-expanded={recording === kind}
            onClick={() => setRecording((open) => (open === kind ? null : kind))}
          >
            {entryTexts(t)[kind].action}
          </button>
        ))}
      </div>
      {recording && (
        <EntryForm key={recording} client={client} kind={recording} onDone={closeEntryForm} />
      )}
    </>
  );
}
