import { createHash, hash, randomBytes } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { SessionUser } from '../../../shared/schemas/auth.ts';
import type { BookRole } from '../../../shared/schemas/books.ts';
import { AppError, unauthenticated } from '../../errors.ts';
import { deleteSession, insertSession, touchSession } from './auth.repository.ts';
import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../../db/database.ts';
import { findLiveSessions, findSessionWithUser, toSessionUser } from './accounts.queries.ts';
import { sessionBook } from '../books/current-book.ts';

export const sessionCookieName = 'balance_session';

// Writing last_seen_at on every request would turn each read into a write.
const touchIntervalMs = 60_000;

declare module 'fastify' {
  interface FastifyRequest {
    user: SessionUser | null;
    sessionTokenHash: string | null;
  }
}

export function hashToken(token: string): string {
  return hash('sha256', token, 'hex');
}

/** What the browser sees of a session: an id derived from the stored hash, never the hash. */
export function publicSessionId(tokenHash: string): string {
  return createHash('sha256').update(`session-id:${tokenHash}`).digest('base64url').slice(0, 22);
}

export async function startSession(
  db: Kysely<Database> | Transaction<Database>,
  userId: string,
  now: number,
  userAgent?: string,
  /** The book it opens in; none: the person's first, found on its first request. */
  bookId: string | null = null,
): Promise<string> {
  const token = randomBytes(32).toString('base64url');
  // Kept only to name the device in the owner's list of sessions.
  await insertSession(db, hashToken(token), userId, now, userAgent?.slice(0, 512) ?? null, bookId);
  return token;
}

export function setSessionCookie(
  request: FastifyRequest,
  reply: FastifyReply,
  token: string,
): void {
  // No maxAge or expires: the cookie ends with the browser; the server enforces the time limits.
  void reply.setCookie(sessionCookieName, token, {
    path: '/',
    httpOnly: true,
    sameSite: 'lax',
    secure: request.protocol === 'https',
  });
}

export function clearSessionCookie(request: FastifyRequest, reply: FastifyReply): void {
  void reply.clearCookie(sessionCookieName, {
    path: '/',
    httpOnly: true,
    sameSite: 'lax',
    secure: request.protocol === 'https',
  });
}

function sessionToken(request: FastifyRequest): string | null {
  const token = request.cookies[sessionCookieName];
  // Our tokens are 43 base64url characters; anything else cannot be one and needs no query.
  return token && /^[\w-]{43}$/.test(token) ? token : null;
}

export async function readSession(
  request: FastifyRequest,
  { touch = true }: { touch?: boolean } = {},
): Promise<{
  user: SessionUser;
  tokenHash: string;
  bookId: string | null;
  role: BookRole | null;
} | null> {
  const token = sessionToken(request);
  if (!token) return null;
  const { db, config } = request.server;
  const tokenHash = hashToken(token);
  const row = await findSessionWithUser(db.kysely, tokenHash);
  // A disabled account's sessions are deleted when it is disabled; this also refuses any left.
  if (!row || row.disabled_at !== null) return null;
  const now = Date.now();
  if (now - row.last_seen_at > config.sessionIdleMs || now - row.created_at > config.sessionMaxMs) {
    await deleteSession(db.kysely, tokenHash);
    return null;
  }
  if (touch && now - row.last_seen_at > touchIntervalMs)
    await touchSession(db.kysely, tokenHash, row.id, now);
  return { user: toSessionUser(row), tokenHash, bookId: row.book_id, role: row.role };
}

const liveSessionsBatch = 1000;

export async function liveSessionBooks(
  db: Kysely<Database>,
  limits: { sessionIdleMs: number; sessionMaxMs: number },
  tokenHashes: readonly string[],
): Promise<Map<string, string>> {
  const now = Date.now();
  const users = new Map<string, string>();
  for (let start = 0; start < tokenHashes.length; start += liveSessionsBatch) {
    const rows = await findLiveSessions(db, tokenHashes.slice(start, start + liveSessionsBatch), {
      lastSeenSince: now - limits.sessionIdleMs,
      createdSince: now - limits.sessionMaxMs,
    });
    for (const row of rows) users.set(row.token_hash, row.book_id);
  }
  return users;
}

export async function requireUser(request: FastifyRequest): Promise<void> {
  // Set from a bearer token before any guard runs (modules/tokens/bearer.ts).
  if (request.accessToken) return;
  const session = await readSession(request);
  if (!session) throw unauthenticated();
  request.user = session.user;
  request.sessionTokenHash = session.tokenHash;
  request.book = await sessionBook(request.server.db.kysely, {
    tokenHash: session.tokenHash,
    bookId: session.bookId,
    userId: session.user.id,
    role: session.role,
  });
}

export function currentUser(request: FastifyRequest): SessionUser {
  if (!request.user) throw new Error('currentUser() called on a route without requireUser');
  return request.user;
}

/** Credentials and the account itself are managed with a session only, never a token. */
export async function requireSession(request: FastifyRequest): Promise<void> {
  if (request.accessToken) {
    throw new AppError(
      403,
      'forbidden',
      'This is done from a signed-in session, not with an access token',
    );
  }
  await requireUser(request);
}
