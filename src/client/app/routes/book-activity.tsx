import { apiRoutes } from '../../../shared/api-routes.ts';
import { useDocumentTitle } from '../../components/document-title.ts';
import { ActivityPage } from '../../features/books/components/activity-page.tsx';
import { useI18n } from '../../i18n/use-i18n.ts';
import { useBookAccess } from '../../lib/session-query.ts';

/** /setting/activity: who did what in the book, its owners' only. */
export function BookActivityPage() {
  const { t } = useI18n();
  const can = useBookAccess();
  useDocumentTitle(t('books.activity.title'));
  if (!can(apiRoutes.bookActivity.access))
    return (
      <>
        <h1>{t('books.activity.title')}</h1>
        <p className="text-body-secondary">{t('books.activity.owners-only')}</p>
      </>
    );
  return <ActivityPage />;
}
