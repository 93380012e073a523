import { useQuery, useQueryClient } from '@tanstack/react-query';
import type { SessionResponse } from '../../../../shared/schemas/auth.ts';
import type { FirstRun } from '../../../../shared/schemas/first-run.ts';
import { queryKeys } from '../../../lib/query-keys.ts';
import { sessionQuery } from '../../../lib/session-query.ts';

export function useSession() {
  return useQuery(sessionQuery);
}

export type { SessionResponse };

/** Keeps the session's word on the first run in step after the setup or Settings change it. */
export function useSetFirstRun() {
  const queryClient = useQueryClient();
  return (firstRun: FirstRun) =>
    queryClient.setQueryData<SessionResponse>(queryKeys.session, (session) =>
      session?.user ? { ...session, firstRun } : session,
    );
}

/**
 * Whether the setup awaits, asked of the server again when the answer kept says it does: a
 * client added or the setup finished on another device since changes it.
 */
export function useSetupAwaits(): { pending: boolean; awaits: boolean } {
  const cached = useQueryClient().getQueryData<SessionResponse>(queryKeys.session);
  const session = useQuery({
    ...sessionQuery,
    staleTime: cached?.firstRun?.setupNeeded ? 0 : sessionQuery.staleTime,
  });
  const awaits = session.data?.firstRun?.setupNeeded === true;
  return { pending: awaits && session.isFetching, awaits };
}
