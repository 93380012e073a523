import { useId, useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { formatMoney, parseAmount, toDecimalText } from '../../../../shared/money.ts';
import type { Client } from '../../../../shared/schemas/clients.ts';
import type { RecordedKind } from '../../../../shared/schemas/ledger.ts';
import { useFlash } from '../../../components/flash.tsx';
import { Modal } from '../../../components/modal.tsx';
import { PageLoadError, PageLoading } from '../../../components/page-status.tsx';
import { ApiError } from '../../../lib/api-client.ts';
import { useDeleteClient, useUpdateBalance } from '../api/mutations.ts';
import { useClient, useClientDeleted, useClientEntries, useClientHistory } from '../api/queries.ts';
import { ClientHistory } from './client-history.tsx';
import { ClientLedger } from './client-ledger.tsx';
import { EntryForm, entryTexts } from './entry-form.tsx';
import { ClientNotFound } from './client-not-found.tsx';

/** Payments first: what an owner records most. */
const entryButtons: RecordedKind[] = ['payment', 'charge', 'credit'];

const isNotFound = (error: Error) => error instanceof ApiError && error.status === 404;

function PencilIcon() {
  return (
    <svg width="16" height="16" viewBox="0 0 16 16" aria-hidden="true" fill="currentColor">
      <path d="M12.15.85a1.5 1.5 0 0 1 2.12 0l.88.88a1.5 1.5 0 0 1 0 2.12L5.5 13.5 1.5 14.5l1-4z" />
    </svg>
  );
}

/**
 * The SPEC's pencil: sets the balance, recorded as an adjustment of the difference. It sends the
 * balance it was opened at, so a change made meanwhile in another tab is refused as a conflict
 * instead of being overwritten; the editor then starts again from the current balance.
 */
function BalanceEditor({ client, onDone }: { client: Client; onDone: () => void }) {
  const inputId = useId();
  const navigate = useNavigate();
  const showFlash = useFlash();
  const updateBalance = useUpdateBalance(client.id);
  const [startedFrom, setStartedFrom] = useState(client.balance);
  const [text, setText] = useState(toDecimalText(client.balance, client.currency));
  const [error, setError] = useState<string | null>(null);

  const save = async () => {
    const parsed = parseAmount(text, client.currency);
    if (!parsed.ok) return setError(parsed.error);
    setError(null);
    try {
      await updateBalance.mutateAsync({ balance: parsed.minor, previousBalance: startedFrom });
      showFlash('Client Updated', 'success');
      onDone();
      await navigate('/');
    } catch (failure) {
      showFlash('Updating Failed', 'danger');
      if (!(failure instanceof ApiError)) throw failure;
      setError(failure.fields.balance ?? failure.message);
      if (failure.code === 'conflict') {
        // What the user typed stays; the next Update is made against the balance shown now.
        const fresh = await updateBalance.reloadClient();
        if (fresh) setStartedFrom(fresh.balance);
      }
    }
  };

  return (
    <form
      className="d-flex flex-wrap gap-2 align-items-start mt-2"
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        void save();
      }}
    >
      <div>
        <label htmlFor={inputId} className="visually-hidden">
          New balance
        </label>
        <input
          id={inputId}
          className={`form-control form-control-sm${error ? ' is-invalid' : ''}`}
          inputMode="decimal"
          placeholder="0"
          value={text}
          onChange={(event) => setText(event.target.value)}
          aria-invalid={error !== null}
          aria-describedby={error ? `${inputId}-error` : undefined}
        />
        {error && (
          <div id={`${inputId}-error`} className="invalid-feedback d-block">
            {error}
          </div>
        )}
      </div>
      <button type="submit" className="btn btn-sm btn-primary" disabled={updateBalance.isPending}>
        Update
      </button>
    </form>
  );
}

export function ClientDetails({ id, balanceLocked }: { id: string; balanceLocked: boolean }) {
  const navigate = useNavigate();
  const showFlash = useFlash();
  const client = useClient(id);
  const history = useClientHistory(id);
  const entries = useClientEntries(id);
  const deleteClient = useDeleteClient(id);
  const [editingBalance, setEditingBalance] = useState(false);
  const [recording, setRecording] = useState<RecordedKind | null>(null);
  const [confirmingDelete, setConfirmingDelete] = useState(false);
  const deletedElsewhere = useClientDeleted(id);

  if (deletedElsewhere && !deleteClient.isPending && !deleteClient.isSuccess) {
    return (
      <div className="text-center py-5" role="status">
        <h1 className="h4">This client has been deleted</h1>
        <p className="text-body-secondary">It was deleted in another tab or on another device.</p>
        <Link to="/">Back to dashboard</Link>
      </div>
    );
  }
  if (client.isPending) return <PageLoading />;
  if (client.isError) {
    if (isNotFound(client.error)) return <ClientNotFound />;
    return <PageLoadError error={client.error} onRetry={() => void client.refetch()} />;
  }
  const current = client.data;
  const owes = current.balance > 0;

  const confirmDelete = async () => {
    try {
      await deleteClient.mutateAsync();
      setConfirmingDelete(false);
      showFlash('Client Deleted', 'success');
      await navigate('/');
    } catch {
      setConfirmingDelete(false);
      showFlash('Deleting Failed', 'danger');
    }
  };

  return (
    <div className="row justify-content-center">
      <div className="col-12 col-lg-8">
        <div className="d-flex justify-content-between align-items-center mb-3">
          <Link to="/">← Back to dashboard</Link>
          <div className="d-flex gap-2">
            <Link to={`/client/edit/${current.id}`} className="btn btn-sm btn-primary">
              Edit
            </Link>
            <button
              type="button"
              className="btn btn-sm btn-danger"
              onClick={() => setConfirmingDelete(true)}
            >
              Delete
            </button>
          </div>
        </div>
        <div className="card">
          <div className="card-body">
            <h1 className="h4 card-title">
              {current.firstName} {current.lastName}
            </h1>
            <p className="text-body-secondary small mb-2">client id: {current.id}</p>
            <div className="d-flex align-items-center gap-2">
              <span
                className={`fs-3 ${owes ? 'text-danger' : 'text-success'}`}
                data-testid="client-balance"
              >
                {formatMoney(current.balance, current.currency)}
              </span>
              <button
                type="button"
                className="btn btn-sm btn-outline-secondary"
                aria-label="Edit balance"
                aria-expanded={editingBalance && !balanceLocked}
                disabled={balanceLocked}
                title={balanceLocked ? 'Turned off in Settings' : undefined}
                onClick={() => setEditingBalance((value) => !value)}
              >
                <PencilIcon />
              </button>
            </div>
            {editingBalance && !balanceLocked && (
              <BalanceEditor client={current} onDone={() => setEditingBalance(false)} />
            )}
            <div className="d-flex flex-wrap gap-2 mt-3">
              {entryButtons.map((kind) => (
                <button
                  key={kind}
                  type="button"
                  className={`btn btn-sm ${kind === 'payment' ? 'btn-success' : 'btn-outline-primary'}`}
                  aria-expanded={recording === kind}
                  onClick={() => setRecording((open) => (open === kind ? null : kind))}
                >
                  {entryTexts[kind].action}
                </button>
              ))}
            </div>
            {recording && (
              <EntryForm
                key={recording}
                client={current}
                kind={recording}
                onDone={() => setRecording(null)}
              />
            )}
            <hr />
            <p className="mb-1">Contact Email: {current.email}</p>
            <p className="mb-0">Contact Phone: {current.phone}</p>
          </div>
        </div>
        {entries.isSuccess && <ClientLedger client={current} entries={entries.data.entries} />}
        {history.isSuccess && <ClientHistory entries={history.data.entries} />}
        <Modal
          open={confirmingDelete}
          title="Delete client?"
          onClose={() => setConfirmingDelete(false)}
          actions={
            <button
              type="button"
              className="btn btn-sm btn-danger"
              disabled={deleteClient.isPending}
              onClick={() => void confirmDelete()}
            >
              Delete
            </button>
          }
        >
          <p className="mb-0 small">
            {current.firstName} {current.lastName} and their balance will be removed. This cannot be
            undone.
          </p>
        </Modal>
      </div>
    </div>
  );
}
