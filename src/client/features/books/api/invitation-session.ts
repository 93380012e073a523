import { useQuery } from '@tanstack/react-query';
import { sessionQuery } from '../../../lib/session-query.ts';

/** The signed-in person's e-mail; null when signed out, undefined until the session is known. */
export function useSessionEmail(): string | null | undefined {
  const session = useQuery(sessionQuery);
  if (session.isPending) return undefined;
  return session.data?.user?.email ?? null;
}
