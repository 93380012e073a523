import { currentLocale } from '../../../i18n/i18n.ts';
import { queryOptions, useMutation, useQuery } from '@tanstack/react-query';
import { apiRoutes } from '../../../../shared/api-routes.ts';
import type { StatementPeriod, StatementSend } from '../../../../shared/schemas/statement.ts';
import { apiAddress, callApi } from '../../../lib/api-client.ts';
import { queryKeys } from '../../../lib/query-keys.ts';

/** The address of a statement's file, for a download link. */
export function statementFilePath(id: string, period: StatementPeriod, form: 'csv' | 'pdf') {
  // A link's download sends the browser's language, not the one the app is shown in.
  const query = { from: period.from, to: period.to, lang: currentLocale() };
  return apiAddress(form === 'csv' ? apiRoutes.statementCsv : apiRoutes.statementPdf, {
    params: { id },
    query,
  });
}

/** One of the owner's data groups: a change the live stream reports refreshes it. */
const statementQuery = (id: string, period: StatementPeriod) =>
  queryOptions({
    queryKey: queryKeys.statements.one(id, period.from, period.to),
    queryFn: ({ signal }) =>
      callApi(apiRoutes.statement, {
        params: { id },
        query: { from: period.from, to: period.to },
        signal,
      }),
  });

export const useStatement = (id: string, period: StatementPeriod) =>
  useQuery(statementQuery(id, period));

export function useSendStatement(id: string) {
  return useMutation({
    mutationFn: (body: StatementSend) => callApi(apiRoutes.sendStatement, { params: { id }, body }),
  });
}
