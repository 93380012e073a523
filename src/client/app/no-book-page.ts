import { lazy } from 'react';
import { currentLocale, loadLocale } from '../i18n/i18n.ts';
import { loadChunk } from '../lib/load-chunk.ts';

/**
 * What a person in no book sees in place of a book's screens (removed from their only book); it
 * loads on demand with its texts, as the pages do (app/router.tsx).
 */
export const NoBookPage = lazy(async () => {
  const [{ NoBook }] = await Promise.all([
    loadChunk(() => import('../features/books/components/no-book.tsx')),
    loadChunk(() => loadLocale(currentLocale())),
  ]);
  return { default: NoBook };
});
