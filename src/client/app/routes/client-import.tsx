import { CsvImport } from '../../features/transfer/components/csv-import.tsx';

import { useDocumentTitle } from '../../components/document-title.ts';
import { useI18n } from '../../i18n/use-i18n.ts';

export function ClientImportPage() {
  const { t } = useI18n();
  useDocumentTitle(t('transfer.title'));
  return <CsvImport />;
}
