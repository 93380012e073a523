import { ImportClients } from '../../features/transfer/components/import-clients.tsx';

export function ClientImportPage() {
  return <ImportClients />;
}
