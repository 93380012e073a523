import { currentBook } from '../books/current-book.ts';
import type { FastifyPluginAsync } from 'fastify';
import { apiRoutes } from '../../../shared/api-routes.ts';
import { handle } from '../../described-route.ts';
import {
  recentLinkDays,
  type AccountClientLink,
  type LinkMaker,
} from '../../../shared/schemas/client-links.ts';
import { displayName } from '../../../shared/names.ts';
import type { Locale } from '../../../shared/locales.ts';
import { requestLocale } from '../../i18n.ts';
import { listSessionsOfUser } from '../auth/accounts.queries.ts';
import { currentUser, publicSessionId, requireSession } from '../auth/session.ts';
import { describeUserAgent } from '../auth/user-agent.ts';
import { listOwnerTokens } from '../tokens/tokens.ts';
import { revokeClientLinks } from './client-links.commands.ts';
import { listRecentLinks } from './client-links.queries.ts';

const dayMs = 86_400_000;
const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

type RecentLinkRow = Awaited<ReturnType<typeof listRecentLinks>>[number];

interface Credentials {
  currentSession: string | null;
  liveSessions: Set<string>;
  liveTokens: Set<string>;
}

function makerOf(row: RecentLinkRow, credentials: Credentials, locale: Locale): LinkMaker {
  const startedAt = iso(row.made_by_started_at);
  switch (row.made_by) {
    case 'session': {
      const current = row.made_by_id !== null && row.made_by_id === credentials.currentSession;
      return {
        kind: 'session',
        device: describeUserAgent(row.made_by_label, locale),
        startedAt,
        current,
        ended: !credentials.liveSessions.has(row.made_by_id ?? ''),
      };
    }
    case 'token':
      return {
        kind: 'token',
        device: row.made_by_label,
        startedAt,
        current: false,
        ended: !credentials.liveTokens.has(row.made_by_id ?? ''),
      };
    case 'reminder':
      return { kind: 'reminder', device: null, startedAt: null, current: false, ended: false };
    default:
      return { kind: 'unknown', device: null, startedAt: null, current: false, ended: false };
  }
}

/**
 * The owner's links and who made them, on the account page: after a password change the links a
 * stolen session made keep working (a client's link outlives a password change on purpose), so
 * the owner is shown them and revokes them in one step. A session only, never a token: a stolen
 * token must not be able to see or clear the trail.
 */
export const accountLinksRoutes: FastifyPluginAsync = async (app) => {
  const { kysely: db } = app.db;
  app.addHook('onRequest', requireSession);

  handle(
    app,
    apiRoutes.accountClientLinks,
    {
      summary: `The live client links made in the last ${recentLinkDays} days, and the session or token that made each`,
    },
    async (request) => {
      const user = currentUser(request);
      const now = Date.now();
      const [rows, sessions, tokens] = await Promise.all([
        listRecentLinks(db, currentBook(request).id, now - recentLinkDays * dayMs, now),
        listSessionsOfUser(db, user.id),
        listOwnerTokens(db, user.id),
      ]);
      const credentials: Credentials = {
        currentSession: request.sessionTokenHash && publicSessionId(request.sessionTokenHash),
        liveSessions: new Set(sessions.map((session) => publicSessionId(session.token_hash))),
        liveTokens: new Set(tokens.map((token) => token.id)),
      };
      const locale = requestLocale(request);
      const links: AccountClientLink[] = rows.map((row) => ({
        id: row.id,
        clientId: row.client_id,
        clientName: displayName({ firstName: row.first_name, lastName: row.last_name }),
        createdAt: new Date(row.created_at).toISOString(),
        expiresAt: iso(row.expires_at),
        lastOpenedAt: iso(row.last_opened_at),
        madeBy: makerOf(row, credentials, locale),
      }));
      return { links };
    },
  );

  handle(
    app,
    apiRoutes.revokeAccountClientLinks,
    { summary: 'Revoke the chosen client links at once, each in its client’s history' },
    async (request) => {
      const revoked = await app.writes.run(
        revokeClientLinks,
        currentBook(request),
        request.body.ids,
      );
      return { revoked };
    },
  );
};
