import fastifyRateLimit from '@fastify/rate-limit';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { tokenSecretPattern } from '../../../shared/schemas/access-tokens.ts';
import { AppError } from '../../errors.ts';
import { toSessionUser } from '../auth/accounts.queries.ts';
import { hashToken, sessionCookieName } from '../auth/session.ts';
import { findTokenWithUser, touchToken } from './tokens.repository.ts';

declare module 'fastify' {
  interface FastifyRequest {
    accessToken: {
      id: string;
      readOnly: boolean;
      hash: string;
      name: string;
      createdAt: number;
    } | null;
  }
}

// Writing last_used_at on every request would turn each read into a write.
const touchIntervalMs = 60_000;
const safeMethods = new Set(['GET', 'HEAD', 'OPTIONS']);

/** Any other scheme (a proxy's Basic authentication) is not ours and is left alone. */
function bearerSecret(request: FastifyRequest): string | null {
  const header = request.headers.authorization;
  if (typeof header !== 'string') return null;
  const match = /^bearer[ \t]+(\S*)[ \t]*$/i.exec(header);
  return match ? (match[1] ?? '') : null;
}

function hasSessionCookie(request: FastifyRequest): boolean {
  return request.cookies[sessionCookieName] !== undefined;
}

/** Needs no cross-site check: another site's page cannot send Authorization without a preflight. */
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

/** Read from the database every time, so revoking is immediate. */
async function lookUp(request: FastifyRequest, tokenHash: string) {
  const row = await findTokenWithUser(request.server.db.kysely, tokenHash);
  if (!row) return null;
  if (row.expires_at !== null && row.expires_at <= Date.now()) return null;
  return row;
}

export async function bearerTokens(api: FastifyInstance): Promise<void> {
  api.decorateRequest('accessToken', null);
  // In memory, so it costs no write per request; behind several instances each counts its own.
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
    request.book = {
      id: row.book_id,
      role: row.role,
      actor: { userId: row.id, tokenId: row.token_id },
    };
    request.accessToken = {
      id: row.token_id,
      readOnly: row.read_only === 1,
      hash: tokenHash,
      name: row.name,
      createdAt: row.created_at,
    };

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
