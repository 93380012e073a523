import { displayName } from '../../../../shared/names.ts';
import { useMemo, useRef, useState } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { Link, useNavigate } from 'react-router';
import { ArrowLeft, FileText, Mail, Pencil, Phone, Trash2 } from 'lucide-react';
import { parseAmount, toDecimalText } from '../../../../shared/money.ts';
import {
  balanceFormSchema,
  type BalanceForm,
  type Client,
} from '../../../../shared/schemas/clients.ts';
import type { RecordedKind } from '../../../../shared/schemas/ledger.ts';
import { useFlash } from '../../../components/flash.tsx';
import { FormField } from '../../../components/form-field.tsx';
import { Modal } from '../../../components/modal.tsx';
import { BalanceAmount } from '../../../components/balance-amount.tsx';
import { PageLoadError, PageLoading } from '../../../components/page-status.tsx';
import { ApiError } from '../../../lib/api-client.ts';
import { useI18n } from '../../../i18n/use-i18n.ts';
import { useDeleteClient, useUpdateBalance } from '../api/mutations.ts';
import { useClient, useClientDeleted, useClientEntries, useClientHistory } from '../api/queries.ts';
import { useReminderPlanState } from '../api/reminders.ts';
import { ClientHistory } from './client-history.tsx';
import { ClientLinkCard } from './client-link-card.tsx';
import { ClientRemindersCard } from './client-reminders-card.tsx';
import { ClientLedger } from './client-ledger.tsx';
import { EntryForm, entryTexts } from './entry-form.tsx';
import { ClientNotFound } from './client-not-found.tsx';

/** Payments first: what an owner records most. */
const entryButtons: RecordedKind[] = ['payment', 'charge', 'credit'];

const isNotFound = (error: Error) => error instanceof ApiError && error.status === 404;

/**
 * The SPEC's pencil: sets the balance, recorded as an adjustment of the difference. It sends the
 * balance it was opened at, so a change made meanwhile in another tab is refused as a conflict
 * instead of being overwritten; the editor then starts again from the current balance.
 */
function BalanceEditor({
  client,
  onDone,
  onCancel,
}: {
  client: Client;
  onDone: () => void;
  onCancel: () => void;
}) {
  const navigate = useNavigate();
  const showFlash = useFlash();
  const updateBalance = useUpdateBalance(client.id);
  const [startedFrom, setStartedFrom] = useState(client.balance);
  const { t } = useI18n();
  const schema = useMemo(() => balanceFormSchema(client.currency), [client.currency]);
  const { register, handleSubmit, setError, formState } = useForm<BalanceForm>({
    resolver: zodResolver(schema),
    defaultValues: { balance: toDecimalText(client.balance, client.currency) },
  });
  const { errors, isSubmitted, isSubmitting } = formState;

  const save = handleSubmit(async (values) => {
    const parsed = parseAmount(values.balance, client.currency);
    if (!parsed.ok) return setError('balance', { type: 'parse', message: parsed.error });
    try {
      await updateBalance.mutateAsync({ balance: parsed.minor, previousBalance: startedFrom });
      showFlash(t('clients.updated'), 'success');
      onDone();
      await navigate('/');
    } catch (failure) {
      showFlash(t('clients.update-failed'), 'danger');
      if (!(failure instanceof ApiError)) throw failure;
      // The form has one field: whatever the server says shows under it.
      setError('balance', { type: 'server', message: failure.fields.balance ?? failure.message });
      if (failure.code === 'conflict') {
        // What the user typed stays; the next Update is made against the balance shown now.
        const fresh = await updateBalance.reloadClient();
        if (fresh) setStartedFrom(fresh.balance);
      }
    }
  });

  return (
    <form
      className="d-flex flex-wrap gap-2 align-items-start mt-2"
      noValidate
      onSubmit={(event) => void save(event)}
      onKeyDown={(event) => {
        if (event.key !== 'Escape') return; // i18n-ignore: a key's name
        event.stopPropagation();
        onCancel();
      }}
    >
      <FormField
        className=""
        label={t('clients.details.new-balance')}
        hideLabel
        small
        inputMode="decimal"
        placeholder="0"
        registration={register('balance')}
        error={errors.balance}
        showError={isSubmitted}
      />
      <button type="submit" className="btn btn-sm btn-primary" disabled={isSubmitting}>
        {t('clients.details.update-balance')}
      </button>
      <button type="button" className="btn btn-sm btn-outline-secondary" onClick={onCancel}>
        {t('clients.cancel')}
      </button>
    </form>
  );
}

export function ClientDetails({ id, balanceLocked }: { id: string; balanceLocked: boolean }) {
  const navigate = useNavigate();
  const showFlash = useFlash();
  const client = useClient(id);
  const history = useClientHistory(id);
  const reminderPlan = useReminderPlanState();
  const entries = useClientEntries(id);
  const deleteClient = useDeleteClient(id);
  const [editingBalance, setEditingBalance] = useState(false);
  const [recording, setRecording] = useState<RecordedKind | null>(null);
  // Closing an inline form puts focus back on the button that opened it, not on the page's body.
  const pencil = useRef<HTMLButtonElement>(null);
  const entryOpeners = useRef(new Map<RecordedKind, HTMLButtonElement>());
  const closeEntryForm = () => {
    if (recording) entryOpeners.current.get(recording)?.focus();
    setRecording(null);
  };
  const [confirmingDelete, setConfirmingDelete] = useState(false);
  const deletedElsewhere = useClientDeleted(id);
  const { t, format } = useI18n();

  if (deletedElsewhere && !deleteClient.isPending && !deleteClient.isSuccess) {
    return (
      <div className="text-center py-5" role="status">
        <h1 className="h4">{t('clients.details.deleted-heading')}</h1>
        <p className="text-body-secondary">{t('clients.details.deleted-elsewhere')}</p>
        <Link to="/">{t('clients.back-to-dashboard')}</Link>
      </div>
    );
  }
  if (client.isPending) return <PageLoading />;
  if (client.isError) {
    if (isNotFound(client.error)) return <ClientNotFound />;
    return <PageLoadError error={client.error} onRetry={() => void client.refetch()} />;
  }
  const current = client.data;
  const fullName = displayName(current);
  const balanceText = format.money(current.balance, current.currency);

  const confirmDelete = async () => {
    try {
      await deleteClient.mutateAsync();
      setConfirmingDelete(false);
      showFlash(t('clients.details.deleted'), 'success');
      await navigate('/');
    } catch {
      setConfirmingDelete(false);
      showFlash(t('clients.details.delete-failed'), 'danger');
    }
  };

  return (
    <div className="row justify-content-center">
      <div className="col-12 col-lg-8">
        {/* Wraps on a phone: the back link, then the actions, never past the screen's edge. */}
        <div className="d-flex flex-wrap justify-content-between align-items-center gap-2 mb-3">
          <Link to="/" className="d-inline-flex align-items-center gap-1">
            <ArrowLeft size={16} className="icon" aria-hidden />
            {t('clients.back-to-dashboard')}
          </Link>
          <div className="d-flex flex-wrap gap-2">
            <Link
              to={`/client/${current.id}/statement`}
              className="btn btn-sm btn-outline-primary d-inline-flex align-items-center gap-1"
            >
              <FileText size={14} className="icon" aria-hidden />
              {t('clients.details.statement')}
            </Link>
            <Link
              to={`/client/edit/${current.id}`}
              className="btn btn-sm btn-primary d-inline-flex align-items-center gap-1"
            >
              <Pencil size={14} className="icon" aria-hidden />
              {t('clients.details.edit')}
            </Link>
            <button
              type="button"
              className="btn btn-sm btn-danger d-inline-flex align-items-center gap-1"
              onClick={() => setConfirmingDelete(true)}
            >
              <Trash2 size={14} className="icon" aria-hidden />
              {t('clients.details.delete')}
            </button>
          </div>
        </div>
        <div className="card">
          <div className="card-body">
            <h1 className="h3 card-title text-break">{fullName}</h1>
            <p className="text-body-secondary small mb-2">
              {t('clients.details.id', { id: current.id })}
            </p>
            <div className="d-flex align-items-center gap-2">
              <BalanceAmount
                className="fs-3"
                minor={current.balance}
                currency={current.currency}
                testId="client-balance"
              />
              <button
                type="button"
                className="btn btn-sm btn-outline-secondary"
                aria-label={t('clients.details.edit-balance')}
                ref={pencil}
                aria-expanded={editingBalance && !balanceLocked}
                disabled={balanceLocked}
                title={balanceLocked ? t('clients.turned-off-in-settings') : undefined}
                onClick={() => setEditingBalance((value) => !value)}
              >
                <Pencil size={16} className="icon" aria-hidden />
              </button>
            </div>
            {editingBalance && !balanceLocked && (
              <BalanceEditor
                client={current}
                onDone={() => setEditingBalance(false)}
                onCancel={() => {
                  pencil.current?.focus();
                  setEditingBalance(false);
                }}
              />
            )}
            <div className="d-flex flex-wrap gap-2 mt-3">
              {entryButtons.map((kind) => (
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
              <EntryForm
                key={recording}
                client={current}
                kind={recording}
                onDone={closeEntryForm}
              />
            )}
            <hr />
            <p className="mb-1 text-break">
              <Mail size={16} className="icon me-2 text-body-secondary" aria-hidden />
              {t('clients.details.contact-email')}{' '}
              <a href={`mailto:${current.email}`}>{current.email}</a>
            </p>
            <p className="mb-0">
              <Phone size={16} className="icon me-2 text-body-secondary" aria-hidden />
              {t('clients.details.contact-phone')}{' '}
              <a href={`tel:${current.phone.replace(/[^\d+]/g, '')}`}>{current.phone}</a>
            </p>
          </div>
        </div>
        {entries.isSuccess && (
          <ClientLedger
            client={current}
            // Pages come newest first, each oldest first: the earliest page leads.
            entries={[...entries.data.pages].reverse().flatMap((page) => page.entries)}
            showEarlier={
              entries.hasNextPage && !entries.isFetchingNextPage
                ? () => void entries.fetchNextPage()
                : undefined
            }
          />
        )}
        <ClientLinkCard clientId={current.id} />
        <ClientRemindersCard client={current} />
        {history.isSuccess && (
          <ClientHistory
            entries={history.data.entries}
            overdueMax={reminderPlan.data?.overdueMax ?? null}
          />
        )}
        <Modal
          open={confirmingDelete}
          title={t('clients.delete.title', { name: fullName })}
          onClose={() => setConfirmingDelete(false)}
          actions={
            <button
              type="button"
              className="btn btn-sm btn-danger"
              disabled={deleteClient.isPending}
              onClick={() => void confirmDelete()}
            >
              {t('clients.details.delete')}
            </button>
          }
        >
          <p className="mb-0 small">
            {current.balance > 0
              ? `${t('clients.delete.still-owes', { name: fullName, balance: balanceText })} `
              : current.balance < 0
                ? `${t('clients.delete.has-credit', { name: fullName, balance: balanceText })} `
                : ''}
            {t('clients.delete.cannot-be-undone')}
          </p>
        </Modal>
      </div>
    </div>
  );
}
