import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiRoutes } from '../../../../shared/api-routes.ts';
import { callApi } from '../../../lib/api-client.ts';

export const bankLayoutsKey = ['bank', 'layouts'] as const;

/** The CSV layouts remembered and the accounts imported under before. */
const bankLayoutsQuery = queryOptions({
  queryKey: bankLayoutsKey,
  queryFn: ({ signal }) => callApi(apiRoutes.bankLayouts, { signal }),
});

export const useBankLayouts = () => useQuery(bankLayoutsQuery);
