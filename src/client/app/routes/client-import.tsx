import { ImportClients } from '../../features/transfer/components/import-clients.tsx';

import { useDocumentTitle } from '../../components/document-title.ts';

export function ClientImportPage() {
  useDocumentTitle('Import clients');
  return <ImportClients />;
}
