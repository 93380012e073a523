// Tokens are credentials, not an owner's data: they change outside the write path, with no event.
import { randomBytes } from 'node:crypto';
import { PostgresAdapter, type Kysely } from 'kysely';
import {
  tokenSecretPrefix,
  tokensPerOwner,
  type AccessToken,
  type AccessTokenInput,
} from '../../../shared/schemas/access-tokens.ts';
import type { Database } from '../../db/database.ts';
import { isForeignKeyViolation } from '../../db/errors.ts';
import { AppError, notFound, unauthenticated } from '../../errors.ts';
import { checkedId, newId } from '../../ids.ts';
import { hashToken } from '../auth/session.ts';
import {
  countTokens,
  deleteToken,
  deleteTokensOfUser,
  findLiveTokens,
  insertToken,
  listTokens,
} from './tokens.repository.ts';
import type { AccessTokensTable } from './tokens.table.ts';

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

function toAccessToken(
  row: Pick<
    AccessTokensTable,
    'id' | 'name' | 'read_only' | 'created_at' | 'last_used_at' | 'expires_at'
  >,
): AccessToken {
  return {
    id: row.id,
    name: row.name,
    access: row.read_only === 1 ? 'read' : 'read-write',
    createdAt: new Date(row.created_at).toISOString(),
    lastUsedAt: iso(row.last_used_at),
    expiresAt: iso(row.expires_at),
  };
}

export async function issueToken(
  db: Kysely<Database>,
  { userId, bookId }: { userId: string; bookId: string },
  input: AccessTokenInput,
  now: number,
): Promise<{ token: AccessToken; secret: string }> {
  const expiresAt = input.expiresAt ? Date.parse(input.expiresAt) : null;
  if (expiresAt !== null && expiresAt <= now) {
    throw new AppError(400, 'validation', 'Invalid expiresAt', {
      fields: { expiresAt: 'Choose a date in the future.' },
    });
  }
  if ((await countTokens(db, userId)) >= tokensPerOwner) {
    throw new AppError(
      409,
      'conflict',
      'An account may hold at most {count} tokens; revoke one first',
      { values: { count: tokensPerOwner } },
    );
  }
  const secret = tokenSecretPrefix + randomBytes(32).toString('base64url');
  const row: AccessTokensTable = {
    id: newId(),
    user_id: userId,
    book_id: bookId,
    name: input.name,
    token_hash: hashToken(secret),
    read_only: input.access === 'read' ? 1 : 0,
    created_at: now,
    last_used_at: null,
    expires_at: expiresAt,
  };
  await insertToken(db, row, db.getExecutor().adapter instanceof PostgresAdapter).catch(
    (error: unknown) => {
      // The session was checked when the request came in; the account may have been deleted since.
      if (isForeignKeyViolation(error)) throw unauthenticated();
      throw error;
    },
  );
  return { token: toAccessToken(row), secret };
}

export async function listOwnerTokens(
  db: Kysely<Database>,
  userId: string,
): Promise<AccessToken[]> {
  return (await listTokens(db, userId)).map(toAccessToken);
}

const tokenNotFound = () => notFound('Token not found');

/** The book the token acted in: its live streams are that book's. */
export async function revokeToken(
  db: Kysely<Database>,
  userId: string,
  id: string,
): Promise<string> {
  const bookId = await deleteToken(db, userId, checkedId(id, tokenNotFound));
  if (bookId === null) throw tokenNotFound();
  return bookId;
}

export async function revokeAllTokens(db: Kysely<Database>, userId: string): Promise<string[]> {
  return (await deleteTokensOfUser(db, userId)).map(tokenStreamKey);
}

export const tokenStreamKey = (tokenId: string) => `${tokenStreamPrefix}${tokenId}`;
const tokenStreamPrefix = 'token:';
/** A session's key is a hash, with no colon. */
export const isTokenStreamKey = (key: string) => key.startsWith(tokenStreamPrefix);

export async function liveTokenBooks(
  db: Kysely<Database>,
  streamKeys: readonly string[],
): Promise<Map<string, string>> {
  const now = Date.now();
  const owners = new Map<string, string>();
  const ids = streamKeys.map((key) => key.slice(tokenStreamPrefix.length));
  for (let start = 0; start < ids.length; start += liveTokensBatch) {
    for (const row of await findLiveTokens(db, ids.slice(start, start + liveTokensBatch), now))
      owners.set(tokenStreamKey(row.id), row.book_id);
  }
  return owners;
}
const liveTokensBatch = 1000;
