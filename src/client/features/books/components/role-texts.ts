import type { BookRole } from '../../../../shared/schemas/books.ts';

type Translate = (key: string, values?: Record<string, unknown>) => string;

/** Each role's name, and what it may do, as the people section and the invitation say them. */
export function roleTexts(t: Translate): Record<BookRole, { name: string; help: string }> {
  return {
    owner: { name: t('books.role.owner'), help: t('books.role.owner-help') },
    bookkeeper: { name: t('books.role.bookkeeper'), help: t('books.role.bookkeeper-help') },
    collector: { name: t('books.role.collector'), help: t('books.role.collector-help') },
    viewer: { name: t('books.role.viewer'), help: t('books.role.viewer-help') },
  };
}
