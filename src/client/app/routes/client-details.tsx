import { displayName } from '../../../shared/names.ts';
import { useParams } from 'react-router';
import { ClientDetails } from '../../features/clients/components/client-details.tsx';
import { useSettings } from '../../features/settings/api/settings.ts';
import { useClient } from '../../features/clients/api/queries.ts';
import { useDocumentTitle } from '../../components/document-title.ts';
import { useI18n } from '../../i18n/use-i18n.ts';

export function ClientDetailsPage() {
  const id = useParams().id ?? '';
  const settings = useSettings();
  const client = useClient(id);
  const { t } = useI18n();
  useDocumentTitle(client.data ? displayName(client.data) : t('clients.details.page-title'));
  // Until the settings are known the pencil stays locked rather than offering what may be off.
  const balanceLocked = settings.data?.preferences.disableBalanceOnEdit ?? true;
  return <ClientDetails key={id} id={id} balanceLocked={balanceLocked} />;
}
