import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiRoutes } from '../../../../shared/api-routes.ts';
import { callApi } from '../../../lib/api-client.ts';
import { queryKeys } from '../../../lib/query-keys.ts';

/** One of the owner's data groups: refreshed with the clients, by a write or a live update. */
const overviewQuery = queryOptions({
  queryKey: queryKeys.overview.summary,
  queryFn: ({ signal }) => callApi(apiRoutes.overview, { signal }),
});

export const useOverview = () => useQuery(overviewQuery);

const ageingQuery = queryOptions({
  queryKey: queryKeys.overview.ageing,
  queryFn: ({ signal }) => callApi(apiRoutes.ageing, { signal }),
});

export const useAgeing = () => useQuery(ageingQuery);
