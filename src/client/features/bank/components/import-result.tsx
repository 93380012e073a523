import { useEffect, useRef } from 'react';
import { Link } from 'react-router';
import type { Currency } from '../../../../shared/money.ts';
import type { BankConfirmed } from '../../../../shared/schemas/bank.ts';
import type { Client } from '../../../../shared/schemas/clients.ts';
import { displayName } from '../../../../shared/names.ts';
import { useI18n } from '../../../i18n/use-i18n.ts';

export interface Outcome {
  confirmed: BankConfirmed;
  /** What each client was paid by the lines recorded now, named: shown again after Back. */
  paid: {
    client: Pick<Client, 'id' | 'firstName' | 'lastName'>;
    amount: number;
    payments: number;
  }[];
  currency: Currency;
}

/** What the confirm recorded, the clients it paid, and its undo. */
export function ImportResult({
  outcome,
  undone,
  undoing,
  undoProblem,
  onUndo,
  onAnother,
}: {
  outcome: Outcome;
  /** Payments voided by the undo, once done. */
  undone: number | null;
  undoing: boolean;
  undoProblem: string | null;
  onUndo: () => void;
  onAnother: () => void;
}) {
  const { t, format } = useI18n();
  const status = useRef<HTMLDivElement>(null);
  const payments = outcome.confirmed.recorded.reduce((sum, line) => sum + line.entryIds.length, 0);
  const before = outcome.confirmed.alreadyRecorded.length;

  useEffect(() => {
    status.current?.focus();
  }, [undone]);

  return (
    <section aria-labelledby="bank-result-heading">
      <h2 id="bank-result-heading" className="h5">
        {undone === null ? t('bank.result.heading') : t('bank.result.heading-undone')}
      </h2>
      <div ref={status} tabIndex={-1} role="status" className="mb-3">
        {undone === null ? (
          <p className={`alert ${payments > 0 ? 'alert-success' : 'alert-info'} py-2 mb-0`}>
            {t('bank.result.summary', { payments, before })}
          </p>
        ) : (
          <p className="alert alert-warning py-2 mb-0">
            {t('bank.result.undone', { count: undone })}
          </p>
        )}
      </div>
      {undoProblem && (
        <p className="alert alert-danger py-2" role="alert">
          {undoProblem}
        </p>
      )}
      {outcome.paid.length > 0 && (
        <>
          <h3 className="h6">
            {undone === null ? t('bank.result.paid') : t('bank.result.paid-undone')}
          </h3>
          <ul className="list-unstyled mb-3">
            {outcome.paid.map((paid) => (
              <li
                key={paid.client.id}
                className="d-flex flex-wrap justify-content-between gap-2 border-bottom py-1"
              >
                <Link to={`/client/${paid.client.id}`}>{displayName(paid.client)}</Link>
                <span className="text-nowrap">{format.money(paid.amount, outcome.currency)}</span>
              </li>
            ))}
          </ul>
        </>
      )}
      <div className="d-flex flex-wrap gap-2">
        {outcome.confirmed.batchId !== null && undone === null && (
          <button
            type="button"
            className="btn btn-outline-danger"
            disabled={undoing}
            onClick={onUndo}
          >
            {undoing ? t('bank.result.undoing') : t('bank.result.undo')}
          </button>
        )}
        <button type="button" className="btn btn-primary" onClick={onAnother}>
          {t('bank.result.another')}
        </button>
        <Link to="/" className="btn btn-outline-secondary">
          {t('bank.result.to-clients')}
        </Link>
      </div>
    </section>
  );
}
