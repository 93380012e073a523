import { BookX } from 'lucide-react';
import { useDocumentTitle } from '../../../components/document-title.ts';
import { useI18n } from '../../../i18n/use-i18n.ts';
import { NewBookForm } from './new-book-form.tsx';

/** A person in no book (removed from their only one): what happened, and a book of their own. */
export function NoBook() {
  const { t } = useI18n();
  useDocumentTitle(t('books.none.title'));
  return (
    <div className="row justify-content-center">
      <div className="col-12 col-sm-10 col-md-7 col-lg-5">
        <div className="text-center pt-4 mb-4">
          <BookX size={40} className="icon text-body-secondary mb-3" aria-hidden />
          <h1 className="h3">{t('books.none.title')}</h1>
          <p className="text-body-secondary">{t('books.none.text')}</p>
        </div>
        <div className="card">
          <div className="card-body">
            <h2 className="h6">{t('books.none.start')}</h2>
            <NewBookForm label={t('books.none.name')} submit={t('books.none.create')} />
          </div>
        </div>
      </div>
    </div>
  );
}
