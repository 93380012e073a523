import { useNavigate } from 'react-router';
import { useFlash } from '../../components/flash.tsx';
import { useAddClient } from '../../features/clients/api/mutations.ts';
import { ClientForm, emptyClientForm } from '../../features/clients/components/client-form.tsx';

export function ClientAddPage() {
  const navigate = useNavigate();
  const showFlash = useFlash();
  const addClient = useAddClient();
  return (
    <ClientForm
      title="Add Client"
      initialValues={emptyClientForm}
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
