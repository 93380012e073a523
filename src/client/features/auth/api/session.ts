import { queryOptions, useQuery } from '@tanstack/react-query';
import type { SessionResponse } from '../../../../shared/schemas/auth.ts';
import { apiRoutes } from '../../../../shared/api-routes.ts';
import { callApi } from '../../../lib/api-client.ts';

export const sessionQueryKey = ['session'] as const;

export const sessionQuery = queryOptions({
  queryKey: sessionQueryKey,
  queryFn: ({ signal }) => callApi(apiRoutes.session, { signal }),
  staleTime: 5 * 60_000,
});

export function useSession() {
  return useQuery(sessionQuery);
}

export type { SessionResponse };
