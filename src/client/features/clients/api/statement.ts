import { currentLocale } from '../../../i18n/i18n.ts';
import { queryOptions, useMutation, useQuery } from '@tanstack/react-query';
import type {
  Statement,
  StatementSent,
  StatementPeriod,
  StatementSend,
} from '../../../../shared/schemas/statement.ts';
import { apiRequest } from '../../../lib/api-client.ts';
import { clientsKey } from './queries.ts';

/** The address of a statement in one of its forms, for a link or a download. */
export function statementPath(
  id: string,
  period: StatementPeriod,
  form: '' | '.csv' | '.pdf' = '',
) {
  const query = new URLSearchParams({ from: period.from, to: period.to });
  // A link's download sends the browser's language, not the one the app is shown in.
  if (form === '.pdf') query.set('lang', currentLocale());
  return `/api/clients/${encodeURIComponent(id)}/statement${form}?${query.toString()}`;
}

/** Under the clients key, so a change the live stream reports refreshes an open statement. */
export const statementQuery = (id: string, period: StatementPeriod) =>
  queryOptions({
    queryKey: [...clientsKey, 'statement', id, period.from, period.to] as const,
    queryFn: ({ signal }) => apiRequest<Statement>('GET', statementPath(id, period), { signal }),
  });

export const useStatement = (id: string, period: StatementPeriod) =>
  useQuery(statementQuery(id, period));

export function useSendStatement(id: string) {
  return useMutation({
    mutationFn: (body: StatementSend) =>
      apiRequest<StatementSent>('POST', `/api/clients/${encodeURIComponent(id)}/statement/send`, {
        body,
      }),
  });
}
