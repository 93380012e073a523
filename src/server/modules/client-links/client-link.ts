import type { ClientLink } from '../../../shared/schemas/client-links.ts';
import type { ClientLinksTable } from './client-links.table.ts';

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

export function toClientLink(
  row: Pick<ClientLinksTable, 'created_at' | 'expires_at' | 'last_opened_at'>,
  now: number,
): ClientLink {
  return {
    createdAt: new Date(row.created_at).toISOString(),
    expiresAt: iso(row.expires_at),
    lastOpenedAt: iso(row.last_opened_at),
    expired: row.expires_at !== null && row.expires_at <= now,
  };
}

export type LinkState = 'live' | 'expired' | 'revoked';

export function linkState(
  row: Pick<ClientLinksTable, 'expires_at' | 'revoked_at'>,
  now: number,
): LinkState {
  if (row.revoked_at !== null) return 'revoked';
  if (row.expires_at !== null && row.expires_at <= now) return 'expired';
  return 'live';
}
