import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiRoutes } from '../../../../shared/api-routes.ts';
import { callApi } from '../../../lib/api-client.ts';
import { queryKeys } from '../../../lib/query-keys.ts';

/** The CSV layouts remembered and the accounts imported under before. */
const bankLayoutsQuery = queryOptions({
  queryKey: queryKeys.bank.layouts,
  queryFn: ({ signal }) => callApi(apiRoutes.bankLayouts, { signal }),
});

export const useBankLayouts = () => useQuery(bankLayoutsQuery);
