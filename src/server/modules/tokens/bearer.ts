import fastifyRateLimit from '@fastify/rate-limit';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { tokenSecretPattern } from '../../../shared/schemas/access-tokens.ts';
import { AppError } from '../../errors.ts';
import { toSessionUser } from '../auth/accounts.queries.ts';
import { hashToken, sessionCookieName } from '../auth/session.ts';
import { findTokenWithUser, touchToken } from './tokens.repository.ts';

declare module 'fastify' {
  interface FastifyRequest {
    /** Set when the request was authenticated by a bearer token (then `user` is its owner). */
    accessToken: { id: string; readOnly: boolean; hash: string } | null;
  }
}

/** Writing last_used_at on every request would turn each read into a write; once a minute is enough. */
const touchIntervalMs = 60_000;
const safeMethods = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * The secret of an `Authorization: Bearer` header, or null when there is none. Any other scheme
 * (a proxy's Basic authentication in front of the app) is not ours and is left alone.
 */
export function bearerSecret(request: FastifyRequest): string | null {
  const header = request.headers.authorization;
  if (typeof header !== 'string') return null;
  const match = /^bearer[ \t]+(\S*)[ \t]*$/i.exec(header);
  return match ? (match[1] ?? '') : null;
}

export function hasSessionCookie(request: FastifyRequest): boolean {
  return request.cookies[sessionCookieName] !== undefined;
}

/**
 * A request with a bearer token and no session cookie. A browser page of another site cannot
 * send one without our permission (the Authorization header needs a CORS preflight we never
 * grant), and no cookie rides along, so the cross-site check has nothing to protect there.
 */
export function isBearerOnly(request: FastifyRequest): boolean {
  return bearerSecret(request) !== null && !hasSessionCookie(request);
}

function invalidToken(): AppError {
  return new AppError(
    401,
    'unauthenticated',
    'The access token is not valid, or it has been revoked or has expired',
    { headers: { 'www-authenticate': 'Bearer error="invalid_token"' } },
  );
}

/** The owner of a live token, or null: read from the database every time, so revoking is immediate. */
async function lookUp(request: FastifyRequest, tokenHash: string) {
  const row = await findTokenWithUser(request.server.db.kysely, tokenHash);
  if (!row) return null;
  if (row.expires_at !== null && row.expires_at <= Date.now()) return null;
  return row;
}

/**
 * Bearer tokens on every route of `api` (the /api scope): the token's owner becomes the request's
 * user before any route's own guard runs, so routes need not know how the user was named.
 */
export async function bearerTokens(api: FastifyInstance): Promise<void> {
  api.decorateRequest('accessToken', null);
  // Counted in this process's memory, like the live stream caps: a limit per token that costs no
  // database write per request. Behind several instances each counts its own share.
  await api.register(fastifyRateLimit, { global: false });
  const limit = api.createRateLimit({
    keyGenerator: (request) => `token:${request.accessToken?.id ?? ''}`,
    max: api.config.tokenRequestsPerMinute,
    timeWindow: 60_000,
  });

  api.addHook('onRequest', async (request) => {
    const secret = bearerSecret(request);
    if (secret === null) return;
    // Which of two credentials would the request act as? Neither: it is refused, not guessed.
    if (hasSessionCookie(request)) {
      throw new AppError(
        400,
        'validation',
        'Send either a session cookie or a bearer token, not both',
      );
    }
    if (!tokenSecretPattern.test(secret)) throw invalidToken();
    const tokenHash = hashToken(secret);
    const row = await lookUp(request, tokenHash);
    if (!row) throw invalidToken();
    request.user = toSessionUser(row);
    request.accessToken = { id: row.token_id, readOnly: row.read_only === 1, hash: tokenHash };

    const counted = await limit(request);
    if (!counted.isAllowed && counted.isExceeded) {
      throw new AppError(
        429,
        'rate_limited',
        'Too many requests with this token; wait and try again',
        {
          headers: { 'retry-after': String(Math.max(1, counted.ttlInSeconds)) },
        },
      );
    }
    if (row.read_only === 1 && !safeMethods.has(request.method)) {
      throw new AppError(403, 'forbidden', 'This token is read-only');
    }
    const now = Date.now();
    if (row.last_used_at === null || now - row.last_used_at > touchIntervalMs) {
      await touchToken(request.server.db.kysely, row.token_id, now);
    }
  });
}
