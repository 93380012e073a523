import { useMemo, useState } from 'react';
import type { Client } from '../../../../shared/schemas/clients.ts';
import type { Entry } from '../../../../shared/schemas/ledger.ts';
import { useI18n } from '../../../i18n/use-i18n.ts';
import { useBookAccess, useSeveralPeople } from '../../../lib/session-query.ts';
import { useLockDate } from '../../../lib/lock-date.ts';
import { apiRoutes } from '../../../../shared/api-routes.ts';
import { entryKindTexts } from '../../../components/entry-kind-texts.ts';
import { paymentMethodTexts } from '../../../components/payment-method-texts.ts';
import { ledgerRows } from './ledger-rows.ts';
import { VoidDialog } from './void-dialog.tsx';
import { EntryForm } from './entry-form.tsx';

type Texts = ReturnType<typeof useI18n>;

// The dates are calendar days, not moments: format.day shows them whatever the time zone.
function describeEntry(entry: Entry, byId: Map<number, Entry>, { t, format }: Texts): string {
  const kinds = entryKindTexts(t);
  if (entry.kind === 'void') {
    const original = entry.voidOf === null ? undefined : byId.get(entry.voidOf);
    const text = original
      ? t('clients.ledger.void-of', {
          kind: kinds[original.kind].inSentence,
          date: format.day(original.date),
        })
      : t('clients.ledger.void-of-unknown');
    return entry.note ? t('clients.ledger.with-note', { text, note: entry.note }) : text;
  }
  const parts: string[] = [kinds[entry.kind].label];
  if (entry.method) parts.push(paymentMethodTexts(t)[entry.method]);
  // A payment from a bank statement: the account it came in on, then the bank's reference.
  if (entry.bank)
    parts.push(
      entry.bank.account === null
        ? t('clients.ledger.bank-unknown')
        : t('clients.ledger.bank', { account: entry.bank.account }),
    );
  if (entry.reference) parts.push(entry.reference);
  if (entry.note) parts.push(entry.note);
  if (entry.dueDate) parts.push(t('clients.ledger.due', { date: format.day(entry.dueDate) }));
  return parts.join(' · ');
}

/**
 * What a payment pays and what paid a charge (issue 57): "Pays INV-2 / Design work" under a payment
 * that names its charges, "Paid by the payment of 3 Nov" under a charge a payment named. A charge
 * without a reference or note is named by its date and amount.
 */
function settlementOf(entry: Entry, byId: Map<number, Entry>, { t, format }: Texts): string[] {
  const kinds = entryKindTexts(t);
  if (entry.pays.length > 0)
    return [
      t('clients.ledger.pays', {
        charges: entry.pays
          .map(
            (charge) =>
              charge.label ||
              t('clients.ledger.charge-of', {
                date: format.day(charge.date),
                amount: format.money(charge.amount, entry.currency),
              }),
          )
          .join('; '),
      }),
    ];
  return entry.paidBy.map((payment) =>
    t('clients.ledger.paid-by', {
      kind: kinds[byId.get(payment.id)?.kind ?? 'payment'].inSentence,
      date: format.day(payment.date),
    }),
  );
}

/**
 * A correction and the entry it corrects, each naming the other (issue 59): by its date when it
 * is on the page, else by its number.
 */
function correctionOf(entry: Entry, byId: Map<number, Entry>, { t, format }: Texts): string[] {
  const lines: string[] = [];
  if (entry.corrects !== null) {
    const corrected = byId.get(entry.corrects);
    lines.push(
      corrected
        ? t('clients.correction.corrects', { date: format.day(corrected.date) })
        : t('clients.correction.corrects-unknown', { id: entry.corrects }),
    );
  }
  if (entry.correctedBy !== null) {
    const correction = byId.get(entry.correctedBy);
    lines.push(
      correction
        ? t('clients.correction.corrected', { date: format.day(correction.date) })
        : t('clients.correction.corrected-unknown', { id: entry.correctedBy }),
    );
  }
  return lines;
}

/**
 * The client's entries oldest first, as the statement and the entries CSV list them, each with
 * the balance after it; a voided entry and its void sit together, greyed, outside that balance.
 * The server sends the newest page first (where an owner works); earlier pages come on asking.
 */
export function ClientLedger({
  client,
  entries,
  showEarlier,
}: {
  client: Client;
  entries: Entry[];
  /** Loads the page before the oldest shown; absent when that is the ledger's first. */
  showEarlier?: (() => void) | undefined;
}) {
  const [voiding, setVoiding] = useState<Entry | null>(null);
  const [correcting, setCorrecting] = useState<Entry | null>(null);
  const lockDate = useLockDate();
  const severalPeople = useSeveralPeople();
  const texts = useI18n();
  const { t, format } = texts;
  const kinds = entryKindTexts(t);
  const mayVoid = useBookAccess()(apiRoutes.voidEntry.access);
  const byId = useMemo(() => new Map(entries.map((entry) => [entry.id, entry])), [entries]);
  const rows = useMemo(() => ledgerRows(entries), [entries]);

  return (
    <section aria-labelledby="ledger-heading" className="mt-4">
      <h2 id="ledger-heading" className="h6">
        {t('clients.ledger.heading')}
      </h2>
      {showEarlier && (
        <button type="button" className="btn btn-link btn-sm px-0 mb-1" onClick={showEarlier}>
          {t('clients.ledger.show-earlier')}
        </button>
      )}
      {entries.length === 0 ? (
        <p className="text-body-secondary small">{t('clients.ledger.empty')}</p>
      ) : (
        // On a phone the date moves under the entry and the running balance under the amount,
        // so the three columns left fit the screen.
        <table className="table table-sm align-middle small">
          <caption className="visually-hidden">{t('clients.ledger.caption')}</caption>
          <thead>
            <tr>
              <th scope="col" className="d-none d-sm-table-cell">
                {t('clients.entry.date')}
              </th>
              <th scope="col">{t('clients.ledger.entry')}</th>
              <th scope="col" className="text-end">
                {t('clients.ledger.amount')}
              </th>
              <th scope="col" className="text-end d-none d-sm-table-cell">
                {t('clients.field.balance')}
              </th>
              <th scope="col">
                <span className="visually-hidden">{t('clients.ledger.actions')}</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {rows.map(({ entry, voidedPair, runningBalance }) => {
              const voided = entry.voidedBy !== null;
              // A corrected entry is put right already: voiding it too would reverse it twice.
              const canVoid =
                mayVoid &&
                entry.kind !== 'void' &&
                !voided &&
                entry.correctedBy === null &&
                entry.currency === client.currency;
              const running =
                runningBalance === null ? '' : format.money(runningBalance, entry.currency);
              // Bootstrap's secondary text on the cells: a row's colour does not reach them.
              const grey = voidedPair ? ' text-body-secondary' : '';
              return (
                <tr
                  key={entry.id}
                  data-testid="ledger-entry"
                  data-voided-pair={voidedPair || undefined}
                >
                  <td className={`text-nowrap d-none d-sm-table-cell${grey}`}>
                    {format.day(entry.date)}
                  </td>
                  <td className={`text-break${grey}${entry.kind === 'void' ? ' ps-3' : ''}`}>
                    <div className="d-sm-none text-body-secondary">{format.day(entry.date)}</div>
                    {describeEntry(entry, byId, texts)}
                    {!voidedPair &&
                      entry.amount > 0 &&
                      entry.kind !== 'void' &&
                      entry.open === 0 && (
                        <span className="badge text-bg-success ms-2">
                          {t('clients.ledger.paid')}
                        </span>
                      )}
                    {!voidedPair &&
                      settlementOf(entry, byId, texts).map((text) => (
                        <div key={text} className="text-body-secondary" data-testid="settlement">
                          {text}
                        </div>
                      ))}
                    {voided && (
                      <span className="badge text-bg-secondary ms-2">
                        {t('clients.ledger.voided')}
                      </span>
                    )}
                    {correctionOf(entry, byId, texts).map((text) => (
                      <div key={text} className="text-body-secondary" data-testid="correction">
                        {text}
                      </div>
                    ))}
                    {severalPeople && entry.enteredBy !== null && (
                      <div className="text-body-secondary" data-testid="entered-by">
                        {t('clients.ledger.by', { email: entry.enteredBy })}
                      </div>
                    )}
                  </td>
                  <td className={`text-end text-nowrap${grey}`}>
                    <span className={voidedPair ? 'text-decoration-line-through' : undefined}>
                      {format.money(entry.amount, entry.currency)}
                    </span>
                    {running && (
                      <div className="d-sm-none text-body-secondary">
                        {t('clients.ledger.balance-after', { balance: running })}
                      </div>
                    )}
                  </td>
                  <td className="text-end text-nowrap d-none d-sm-table-cell">{running}</td>
                  <td className="text-end">
                    {canVoid && (
                      <button
                        type="button"
                        className="btn btn-link btn-sm p-0"
                        aria-label={t('clients.ledger.void-label', {
                          kind: kinds[entry.kind].inSentence,
                          date: format.day(entry.date),
                        })}
                        onClick={() => setVoiding(entry)}
                      >
                        {t('clients.ledger.void')}
                      </button>
                    )}
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      )}
      {correcting && (
        <EntryForm
          key={correcting.id}
          client={client}
          // To put right what an entry added to the balance, a credit; what it took, a charge.
          kind={correcting.amount > 0 ? 'credit' : 'charge'}
          corrects={correcting}
          onDone={() => setCorrecting(null)}
        />
      )}
      <VoidDialog
        client={client}
        entry={voiding}
        lockDate={lockDate}
        onClose={() => setVoiding(null)}
        onCorrect={setCorrecting}
      />
    </section>
  );
}
