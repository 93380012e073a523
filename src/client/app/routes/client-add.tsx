import { useNavigate } from 'react-router';
import { useFlash } from '../../components/flash.tsx';
import { useDocumentTitle } from '../../components/document-title.ts';
import { useAddClient } from '../../features/clients/api/mutations.ts';
import { useSettings } from '../../features/settings/api/settings.ts';
import { PageLoadError, PageLoading } from '../../components/page-status.tsx';
import { ClientForm, emptyClientForm } from '../../features/clients/components/client-form.tsx';
import { useI18n } from '../../i18n/use-i18n.ts';

export function ClientAddPage() {
  const navigate = useNavigate();
  const showFlash = useFlash();
  const addClient = useAddClient();
  const settings = useSettings();
  const { t } = useI18n();
  useDocumentTitle(t('clients.add.page-title'));
  if (settings.isPending) return <PageLoading />;
  if (settings.isError)
    return <PageLoadError error={settings.error} onRetry={() => void settings.refetch()} />;
  return (
    <ClientForm
      title={t('clients.add.heading')}
      cancelTo="/"
      // A new client starts in the business's main currency.
      initialValues={{
        ...emptyClientForm,
        currency: settings.data.business.mainCurrency ?? emptyClientForm.currency,
      }}
      openingFields
      balanceDisabled={settings.data.preferences.disableBalanceOnAdd}
      onSubmit={async (client) => {
        try {
          await addClient.mutateAsync(client);
        } catch (error) {
          showFlash(t('clients.add.failed'), 'danger');
          throw error;
        }
        showFlash(t('clients.add.done'), 'success');
        await navigate('/');
      }}
    />
  );
}
