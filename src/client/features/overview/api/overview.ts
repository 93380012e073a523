import { queryOptions, useQuery } from '@tanstack/react-query';
import type { Overview } from '../../../../shared/schemas/overview.ts';
import { apiRequest } from '../../../lib/api-client.ts';
import { overviewKey } from './keys.ts';

// Refreshed by the live stream with the client list (app/live-updates.ts).

export const overviewQuery = queryOptions({
  queryKey: overviewKey,
  queryFn: ({ signal }) => apiRequest<Overview>('GET', '/api/overview', { signal }),
});

export const useOverview = () => useQuery(overviewQuery);
