import { useEffect } from 'react';
import { brandName } from '../../shared/constants.ts';

/** "Clients · Balance": what the tab, the history and a screen reader call this page. */
function documentTitle(page: string | null): string {
  return page ? `${page} · ${brandName}` : brandName;
}

/** Each route names itself; null while the name is still loading keeps the plain brand. */
export function useDocumentTitle(page: string | null): void {
  useEffect(() => {
    document.title = documentTitle(page);
  }, [page]);
}
