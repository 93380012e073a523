import { useNavigate } from 'react-router';
import { useFlash } from '../../components/flash.tsx';
import { useDocumentTitle } from '../../components/document-title.ts';
import { useAddClient } from '../../features/clients/api/mutations.ts';
import { useSettings } from '../../features/settings/api/settings.ts';
import { PageLoadError, PageLoading } from '../../components/page-status.tsx';
import { ClientForm, emptyClientForm } from '../../features/clients/components/client-form.tsx';

export function ClientAddPage() {
  const navigate = useNavigate();
  const showFlash = useFlash();
  const addClient = useAddClient();
  const settings = useSettings();
  useDocumentTitle('Add client');
  if (settings.isPending) return <PageLoading />;
  if (settings.isError)
    return <PageLoadError error={settings.error} onRetry={() => void settings.refetch()} />;
  return (
    <ClientForm
      title="Add Client"
      cancelTo="/"
      initialValues={emptyClientForm}
      balanceDisabled={settings.data.preferences.disableBalanceOnAdd}
      onSubmit={async (client) => {
        try {
          await addClient.mutateAsync(client);
        } catch (error) {
          showFlash('Adding Failed', 'danger');
          throw error;
        }
        showFlash('New Client Added', 'success');
        await navigate('/');
      }}
    />
  );
}
