import { useParams } from 'react-router';
import { ClientDetails } from '../../features/clients/components/client-details.tsx';
import { useSettings } from '../../features/settings/api/settings.ts';

export function ClientDetailsPage() {
  const id = useParams().id ?? '';
  const settings = useSettings();
  // Until the settings are known the pencil stays locked rather than offering what may be off.
  const balanceLocked = settings.data?.preferences.disableBalanceOnEdit ?? true;
  return <ClientDetails key={id} id={id} balanceLocked={balanceLocked} />;
}
