import { randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/database.ts';
import { invitationValidity, passwordResetValidity } from '../../../shared/schemas/account.ts';
import { insertInvitation, replacePasswordReset } from './auth.accounts.ts';
import { hashToken } from './session.ts';

export interface OneTimeLink {
  /** The path to open on this instance; a mailer puts its public origin in front. */
  path: string;
  expiresAt: number;
}

/** 256 random bits; like a session's, only the hash is stored, so a leaked table opens nothing. */
function newToken(): { token: string; tokenHash: string } {
  const token = randomBytes(32).toString('base64url');
  return { token, tokenHash: hashToken(token) };
}

/**
 * A link that sets a new password for this user, once, within 24 hours; it replaces any earlier
 * one. The administrator hands it over; sending it by e-mail is one call with `path` later.
 */
export async function createPasswordResetLink(
  db: Kysely<Database>,
  userId: string,
  now: number,
): Promise<OneTimeLink> {
  const { token, tokenHash } = newToken();
  const expiresAt = now + passwordResetValidity;
  await replacePasswordReset(db, { tokenHash, userId, now, expiresAt });
  return { path: `/reset-password/${token}`, expiresAt };
}

/** A link that lets this one e-mail join once, within 7 days, even with registration closed. */
export async function createInvitationLink(
  db: Kysely<Database>,
  email: string,
  createdBy: string,
  now: number,
): Promise<OneTimeLink> {
  const { token, tokenHash } = newToken();
  const expiresAt = now + invitationValidity;
  await insertInvitation(db, { tokenHash, email, createdBy, now, expiresAt });
  return { path: `/join?invite=${token}`, expiresAt };
}
