import { displayName } from '../../../shared/names.ts';
import { useNavigate, useParams } from 'react-router';
import { toDecimalText } from '../../../shared/money.ts';
import type { Client } from '../../../shared/schemas/clients.ts';
import { useFlash } from '../../components/flash.tsx';
import { useDocumentTitle } from '../../components/document-title.ts';
import { PageLoadError, PageLoading } from '../../components/page-status.tsx';
import { ApiError } from '../../lib/api-client.ts';
import { useUpdateClient } from '../../features/clients/api/mutations.ts';
import { useClient } from '../../features/clients/api/queries.ts';
import { useClientEntries, useClientOpenings } from '../../features/ledger/api/entries.ts';
import { currencyCanChange, type Entry } from '../../../shared/schemas/ledger.ts';
import { useSettings } from '../../features/settings/api/settings.ts';
import {
  ClientForm,
  type ClientFormValues,
} from '../../features/clients/components/client-form.tsx';
import { ClientNotFound } from '../../components/client-not-found.tsx';
import { useState } from 'react';
import { useI18n } from '../../i18n/use-i18n.ts';

function toFormValues(client: Client, opening: Entry | undefined): ClientFormValues {
  return {
    firstName: client.firstName,
    lastName: client.lastName,
    email: client.email,
    phone: client.phone,
    currency: client.currency,
    balance: toDecimalText(client.balance, client.currency),
    company: client.company,
    addressLine1: client.addressLine1,
    addressLine2: client.addressLine2,
    city: client.city,
    postcode: client.postcode,
    country: client.country,
    taxId: client.taxId,
    notes: client.notes,
    ...(opening && {
      openingDate: opening.date,
      openingDueDate: opening.dueDate ?? '',
      openingReference: opening.reference,
    }),
  };
}

export function ClientEditPage() {
  const id = useParams().id ?? '';
  const navigate = useNavigate();
  const showFlash = useFlash();
  const client = useClient(id);
  const settings = useSettings();
  const entries = useClientEntries(id);
  const openings = useClientOpenings(id);
  const updateClient = useUpdateClient(id);
  const [conflict, setConflict] = useState<string | null>(null);
  // The form edits the client as it was when opened; live updates must not wipe what is typed.
  const [opened, setOpened] = useState<Client | null>(null);
  const { t, message } = useI18n();
  useDocumentTitle(
    client.data
      ? t('clients.edit.page-title-of', {
          name: displayName(client.data),
        })
      : t('clients.edit.page-title'),
  );

  if (client.isPending || settings.isPending || entries.isPending || openings.isPending)
    return <PageLoading />;
  if (settings.isError)
    return <PageLoadError error={settings.error} onRetry={() => void settings.refetch()} />;
  if (client.isError) {
    if (client.error instanceof ApiError && client.error.status === 404) return <ClientNotFound />;
    return <PageLoadError error={client.error} onRetry={() => void client.refetch()} />;
  }
  if (opened === null) {
    setOpened(client.data);
    return null;
  }
  const { version } = opened;
  // The opening the server changes: in the client's currency, not voided.
  const opening = openings.data?.entries.find(
    (entry) => entry.currency === opened.currency && entry.voidedBy === null,
  );
  const changedElsewhere = client.data.version !== version;
  const { disableBalanceOnEdit } = settings.data.preferences;
  // The stored balance is kept with the setting on, so its currency must stay too; and amounts
  // already recorded mean something only in the client's currency.
  const currencyLockedBecause = disableBalanceOnEdit
    ? t('clients.edit.currency-off-with-balance')
    : // The newest page decides; a longer ledger of only openings is left to the server's check.
      entries.isSuccess && !currencyCanChange(entries.data.pages[0]?.entries ?? [])
      ? t('clients.edit.currency-kept-with-entries')
      : null;

  return (
    <ClientForm
      // Loading the current values (after a conflict, or on request) starts the form afresh.
      key={version}
      title={t('clients.edit.heading')}
      cancelTo={`/client/${id}`}
      balanceDisabled={disableBalanceOnEdit}
      currencyLockedBecause={currencyLockedBecause}
      editOpening={opening !== undefined}
      initialValues={toFormValues(opened, opening)}
      notice={
        conflict ? (
          <div className="alert alert-warning py-2" role="alert">
            {message(conflict)}
          </div>
        ) : (
          changedElsewhere && (
            <div
              className="alert alert-info py-2 d-flex justify-content-between align-items-center gap-2"
              role="status"
            >
              <span>{t('clients.edit.changed-elsewhere')}</span>
              <button
                type="button"
                className="btn btn-sm btn-outline-dark"
                onClick={() => setOpened(client.data)}
              >
                {t('clients.edit.load-current')}
              </button>
            </div>
          )
        )
      }
      onSubmit={async (values) => {
        try {
          await updateClient.mutateAsync({ ...values, version });
        } catch (error) {
          showFlash(t('clients.update-failed'), 'danger');
          if (error instanceof ApiError && error.code === 'conflict') {
            setConflict(error.message);
            // The failed save refetched the client: show its current values.
            setOpened(null);
          }
          throw error;
        }
        showFlash(t('clients.updated'), 'success');
        await navigate('/');
      }}
    />
  );
}
