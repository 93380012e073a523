// Every change of an account, its sessions and its one-time links, each one function that makes
// the whole change (its transaction included). Accounts are credentials, not an owner's data (no
// client list, history or live stream depends on them), so they change here, outside the owner's
// write path; deleting an account, which removes the owner's data, goes through it
// (`removeOwner`). A command that ends sessions or tokens returns their hashes: the route ends
// their live streams on its instance (other instances notice at their next heartbeat).
import type { Kysely } from 'kysely';
import type { SessionUser } from '../../../shared/schemas/auth.ts';
import type { Database } from '../../db/database.ts';
import { isUniqueViolation } from '../../db/errors.ts';
import { AppError } from '../../errors.ts';
import type { AnyCommand, WritePath } from '../events/write-path.ts';
import { revokeAllTokens } from '../tokens/tokens.ts';
import {
  countUsers,
  deletePasswordResetsOfUser,
  deleteSessionOfUser,
  deleteSessionsOfUser,
  deleteUser,
  takePasswordReset,
  updateEmail,
} from './account.repository.ts';
import { findUserByEmail, updatePasswordHash } from './auth.repository.ts';
import { hashToken } from './session.ts';

/**
 * Sets a new password, inside the caller's transaction, and ends what the old one let in: every
 * session but `keepSession`, every API token (one may have been made with a stolen session) and
 * every reset link made before it (decision 020). Returns the ended credentials' stream keys.
 */
async function setNewPassword(
  trx: Kysely<Database>,
  userId: string,
  passwordHash: string,
  keepSession?: string,
): Promise<string[]> {
  await updatePasswordHash(trx, userId, passwordHash);
  await deletePasswordResetsOfUser(trx, userId);
  const sessions = await deleteSessionsOfUser(
    trx,
    userId,
    keepSession === undefined ? {} : { except: keepSession },
  );
  return [...sessions, ...(await revokeAllTokens(trx, userId))];
}

/** The signed-in user's new password; every other credential of the account ends with the old one. */
export async function changePassword(
  db: Kysely<Database>,
  userId: string,
  passwordHash: string,
  keepSession: string,
): Promise<string[]> {
  return db.transaction().execute((trx) => setNewPassword(trx, userId, passwordHash, keepSession));
}

/** Uses up a reset link and sets its user's password; null when the link is spent or expired. */
export async function resetPasswordWithLink(
  db: Kysely<Database>,
  token: string,
  passwordHash: string,
): Promise<{ userId: string; ended: string[] } | null> {
  return db.transaction().execute(async (trx) => {
    const userId = await takePasswordReset(trx, hashToken(token), Date.now());
    if (!userId) return null;
    return { userId, ended: await setNewPassword(trx, userId, passwordHash) };
  });
}

/** Ends one of the user's sessions; false when the user has no such session (any more). */
export async function endSessionOfUser(
  db: Kysely<Database>,
  userId: string,
  tokenHash: string,
): Promise<boolean> {
  return deleteSessionOfUser(db, userId, tokenHash);
}

/** Ends every session of the user but this one; returns the ended ones. */
export async function endOtherSessions(
  db: Kysely<Database>,
  userId: string,
  keepSession: string,
): Promise<string[]> {
  return deleteSessionsOfUser(db, userId, { except: keepSession });
}

export async function changeEmail(
  db: Kysely<Database>,
  userId: string,
  email: string,
): Promise<void> {
  try {
    await db.transaction().execute(async (trx) => {
      const holder = await findUserByEmail(trx, email);
      if (holder && holder.id !== userId) throw emailTaken();
      await updateEmail(trx, userId, email);
    });
  } catch (error) {
    // Two changes to one e-mail at once: the unique index refuses the second.
    if (isUniqueViolation(error, 'email_key')) throw emailTaken();
    throw error;
  }
}

/**
 * Deletes the account and, through the owner's write path, every row of its data: its lock
 * order keeps the deletion from deadlocking with the owner's changes (decision 020).
 */
export async function deleteAccount(
  writes: Pick<WritePath<AnyCommand>, 'removeOwner'>,
  user: SessionUser,
  row: { id: string; email_key: string },
): Promise<void> {
  await writes.removeOwner(user.id, async (trx) => {
    // Checked inside the transaction: someone may have joined since the page was loaded.
    if (user.isAdmin && (await countUsers(trx)) > 1) {
      throw new AppError(
        409,
        'conflict',
        'You are the administrator of this Balance and other accounts depend on you, so this account cannot be deleted',
      );
    }
    await deleteSessionsOfUser(trx, user.id);
    await deleteUser(trx, row);
  });
}

function emailTaken(): AppError {
  return new AppError(409, 'email_taken', 'This e-mail is already registered', {
    fields: { email: 'is already registered' },
  });
}
