import { Link } from 'react-router';
import { useDocumentTitle } from '../../components/document-title.ts';
import { useI18n } from '../../i18n/use-i18n.ts';

export function NotFoundPage() {
  const { t } = useI18n();
  useDocumentTitle(t('layout.not-found.title'));
  return (
    <div className="text-center py-5">
      <h1>{t('layout.not-found.title')}</h1>
      <Link to="/">{t('layout.not-found.back')}</Link>
    </div>
  );
}
