import { useDocumentTitle } from '../../components/document-title.ts';
import { PageLoadError, PageLoading } from '../../components/page-status.tsx';
import { useSession } from '../../features/auth/api/session.ts';
import { BankImport } from '../../features/bank/components/bank-import.tsx';
import { useI18n } from '../../i18n/use-i18n.ts';

export function BankPage() {
  const session = useSession();
  const { t } = useI18n();
  useDocumentTitle(t('bank.title'));
  if (session.isPending) return <PageLoading />;
  if (session.isError)
    return <PageLoadError error={session.error} onRetry={() => void session.refetch()} />;
  // A statement's account is in the business's main currency unless the owner says otherwise.
  return <BankImport mainCurrency={session.data.firstRun?.mainCurrency ?? 'USD'} />;
}
