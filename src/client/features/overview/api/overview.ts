import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiRoutes } from '../../../../shared/api-routes.ts';
import { callApi } from '../../../lib/api-client.ts';

const overviewQuery = queryOptions({
  // Under the clients' key (`['clients']`, features/clients/api/queries.ts): the overview sums
  // the owner's clients, so whatever refreshes them after a write (the write's own answer, an
  // import, a live update) refreshes it too, and the dashboard never shows the list changed and
  // its totals not yet.
  queryKey: ['clients', 'overview'],
  queryFn: ({ signal }) => callApi(apiRoutes.overview, { signal }),
});

export const useOverview = () => useQuery(overviewQuery);
