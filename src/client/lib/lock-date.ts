import { useQuery } from '@tanstack/react-query';
import { apiRoutes } from '../../shared/api-routes.ts';
import { mayDo } from '../../shared/book-access.ts';
import { callApi } from './api-client.ts';
import { queryKeys } from './query-keys.ts';
import { useCurrentBook } from './session-query.ts';

/**
 * The day the current book is closed up to (issue 59), for those who may read it (its owners);
 * undefined for everyone else and until it has come: they learn of it from a refused write.
 */
export function useLockDate(): string | null | undefined {
  const { book } = useCurrentBook();
  const allowed = !!book && mayDo(book.role, apiRoutes.lockDate.access);
  const lockDate = useQuery({
    queryKey: queryKeys.books.lockDate,
    queryFn: ({ signal }) => callApi(apiRoutes.lockDate, { signal }),
    enabled: allowed,
  });
  return allowed ? lockDate.data?.lockDate : undefined;
}
