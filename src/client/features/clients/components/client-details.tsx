import { clientName } from '../../../../shared/names.ts';
import { useRef, useState, type ReactNode } from 'react';
import { Link, useNavigate } from 'react-router';
import { BusinessDetails } from './business-details.tsx';
import { ArrowLeft, FileText, Mail, Pencil, Phone, Trash2 } from 'lucide-react';
import type { Client } from '../../../../shared/schemas/clients.ts';
import { useFlash } from '../../../components/flash.tsx';
import { Modal } from '../../../components/modal.tsx';
import { BalanceAmount } from '../../../components/balance-amount.tsx';
import { PageLoadError, PageLoading } from '../../../components/page-status.tsx';
import { ApiError } from '../../../lib/api-client.ts';
import { useBookAccess } from '../../../lib/session-query.ts';
import { apiRoutes } from '../../../../shared/api-routes.ts';
import { useI18n } from '../../../i18n/use-i18n.ts';
import { ClientNotFound } from '../../../components/client-not-found.tsx';
import { useDeleteClient } from '../api/mutations.ts';
import { useClient, useClientDeleted } from '../api/queries.ts';
import { BalanceEditor } from './balance-editor.tsx';

const isNotFound = (error: Error) => error instanceof ApiError && error.status === 404;

/**
 * The client's page: the client's card (balance, contact, delete) with what other features
 * bring to it, composed by the route page (app/routes/client-details.tsx): `actions` in the
 * card below the balance (recording an entry), `sections` below the card (the ledger, the
 * link, the reminders, the history). Both are given the client once it has loaded.
 */
export function ClientDetails({
  id,
  balanceLocked,
  actions,
  sections,
}: {
  id: string;
  balanceLocked: boolean;
  actions: (client: Client) => ReactNode;
  sections: (client: Client) => ReactNode;
}) {
  const navigate = useNavigate();
  const showFlash = useFlash();
  const client = useClient(id);
  const deleteClient = useDeleteClient(id);
  const [editingBalance, setEditingBalance] = useState(false);
  // Closing the inline editor puts focus back on the pencil, not on the page's body.
  const pencil = useRef<HTMLButtonElement>(null);
  const [confirmingDelete, setConfirmingDelete] = useState(false);
  const deletedElsewhere = useClientDeleted(id);
  const { t, format } = useI18n();
  const can = useBookAccess();
  const mayEditBalance = can(apiRoutes.updateBalance.access);

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
  // A business by its company (its contact person is named in its details below).
  const fullName = clientName(current);
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
            {can(apiRoutes.updateClient.access) && (
              <Link
                to={`/client/edit/${current.id}`}
                className="btn btn-sm btn-primary d-inline-flex align-items-center gap-1"
              >
                <Pencil size={14} className="icon" aria-hidden />
                {t('clients.details.edit')}
              </Link>
            )}
            {can(apiRoutes.deleteClient.access) && (
              <button
                type="button"
                className="btn btn-sm btn-danger d-inline-flex align-items-center gap-1"
                onClick={() => setConfirmingDelete(true)}
              >
                <Trash2 size={14} className="icon" aria-hidden />
                {t('clients.details.delete')}
              </button>
            )}
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
              {mayEditBalance && (
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
              )}
            </div>
            {editingBalance && !balanceLocked && mayEditBalance && (
              <BalanceEditor
                client={current}
                onDone={() => setEditingBalance(false)}
                onCancel={() => {
                  pencil.current?.focus();
                  setEditingBalance(false);
                }}
              />
            )}
            {actions(current)}
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
            <BusinessDetails client={current} />
          </div>
        </div>
        {sections(current)}
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
