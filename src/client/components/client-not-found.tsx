import { Link } from 'react-router';
import { useI18n } from '../i18n/use-i18n.ts';

export function ClientNotFound() {
  const { t } = useI18n();
  return (
    <div className="text-center py-5">
      <h1>{t('clients.not-found')}</h1>
      <Link to="/">{t('clients.back-to-dashboard')}</Link>
    </div>
  );
}
