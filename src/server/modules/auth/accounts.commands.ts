// Accounts are credentials, not an owner's data, so they change outside the owner's write path;
// only deleting one (which removes the data) goes through it.
import { randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import { invitationValidity, passwordResetValidity } from '../../../shared/schemas/account.ts';
import type { SessionUser } from '../../../shared/schemas/auth.ts';
import type { PasswordHashParams } from '../../config.ts';
import type { Database } from '../../db/database.ts';
import { isUniqueViolation } from '../../db/errors.ts';
import { AppError, notFound } from '../../errors.ts';
import { newId } from '../../ids.ts';
import type { AnyCommand, WritePath } from '../events/write-path.ts';
import { readAllowRegistration } from '../settings/settings.queries.ts';
import { revokeAllTokens } from '../tokens/tokens.ts';
import {
  deletePasswordResetsOfUser,
  deleteSessionOfUser,
  deleteSessionsOfUser,
  deleteUser,
  insertInvitation,
  replacePasswordReset,
  setDisabled,
  takeInvitation,
  takePasswordReset,
  updateEmail,
} from './account.repository.ts';
import { deleteSession, insertUser, updatePasswordHash } from './auth.repository.ts';
import { hashPassword, needsRehash } from './password.ts';
import { findBooksOwnedAlone } from '../books/books.queries.ts';
import { createBook, removeBooks } from '../books/books.commands.ts';
import { hashToken, startSession } from './session.ts';
import { findUserByEmail, hasAnyUser, countUsers, findUserById } from './accounts.queries.ts';

export async function signUp(
  db: Kysely<Database>,
  input: { email: string; passwordHash: string; invite?: string; userAgent?: string },
): Promise<{ token: string; user: SessionUser }> {
  const { email, passwordHash, invite } = input;
  const createAccount = (mayBeAdmin: boolean) =>
    db.transaction().execute(async (trx) => {
      // Checked again here: the switch may have been turned off while the password hashed.
      const open = await readAllowRegistration(trx);
      if (
        invite !== undefined &&
        !(await takeInvitation(trx, hashToken(invite), email, Date.now()))
      ) {
        // Registration open: the invitation is not needed, so a spent one does not matter.
        if (!open) throw invalidInvitation();
      } else if (!open && invite === undefined) throw registrationClosed();
      if (await findUserByEmail(trx, email)) throw emailTakenAtJoin();
      const now = Date.now();
      const user = {
        id: newId(),
        email: email.trim(),
        passwordHash,
        isAdmin: mayBeAdmin && !(await hasAnyUser(trx)),
        now,
      };
      await insertUser(trx, user);
      // Every new account keeps its own book, as its owner (decision 044).
      await createBook(trx, { id: user.id, ownerId: user.id, now });
      const token = await startSession(trx, user.id, now, input.userAgent, user.id);
      return { token, user: { id: user.id, email: user.email, isAdmin: user.isAdmin } };
    });
  try {
    return await createAccount(true);
  } catch (error) {
    if (isUniqueViolation(error, 'email_key')) throw emailTakenAtJoin();
    // Two first sign-ups at once: only one may become the administrator.
    if (!isUniqueViolation(error, 'is_admin') && !isUniqueViolation(error, 'users_single_admin'))
      throw error;
    return createAccount(false);
  }
}

/**
 * The account of a person who accepts an invitation to a book (issue 58): made whether or not
 * registration is open, and with no book of its own: the book they join is theirs to keep.
 */
export async function createInvitedAccount(
  db: Kysely<Database>,
  account: { email: string; passwordHash: string },
): Promise<SessionUser> {
  const id = newId();
  await insertUser(db, { id, ...account, isAdmin: false, now: Date.now() });
  return { id, email: account.email, isAdmin: false };
}

export async function upgradePasswordHash(
  db: Kysely<Database>,
  user: { id: string; password_hash: string },
  password: string,
  params: PasswordHashParams,
): Promise<void> {
  if (needsRehash(user.password_hash, params))
    await updatePasswordHash(db, user.id, await hashPassword(password, params));
}

export async function endSession(db: Kysely<Database>, tokenHash: string): Promise<void> {
  await deleteSession(db, tokenHash);
}

/** Ends every other credential: a token may have been made with a stolen session (decision 020). */
async function setNewPassword(
  trx: Kysely<Database>,
  userId: string,
  passwordHash: string,
  keepSession?: string,
): Promise<string[]> {
  await updatePasswordHash(trx, userId, passwordHash);
  return endOtherCredentials(trx, userId, keepSession);
}

/** Reset links, other sessions and API tokens; the keys of the live streams to end. */
async function endOtherCredentials(
  trx: Kysely<Database>,
  userId: string,
  keepSession?: string,
): Promise<string[]> {
  await deletePasswordResetsOfUser(trx, userId);
  const sessions = await deleteSessionsOfUser(
    trx,
    userId,
    keepSession === undefined ? {} : { except: keepSession },
  );
  return [...sessions, ...(await revokeAllTokens(trx, userId))];
}

export async function changePassword(
  db: Kysely<Database>,
  userId: string,
  passwordHash: string,
  keepSession: string,
): Promise<string[]> {
  return db.transaction().execute((trx) => setNewPassword(trx, userId, passwordHash, keepSession));
}

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

export async function endSessionOfUser(
  db: Kysely<Database>,
  userId: string,
  tokenHash: string,
): Promise<boolean> {
  return deleteSessionOfUser(db, userId, tokenHash);
}

export async function endOtherSessions(
  db: Kysely<Database>,
  userId: string,
  keepSession: string,
): Promise<string[]> {
  return deleteSessionsOfUser(db, userId, { except: keepSession });
}

/**
 * A new e-mail ends every other credential as a new password does (decision 020): whoever holds a
 * stolen session could otherwise move the account to their own mailbox and keep their tokens.
 */
export async function changeEmail(
  db: Kysely<Database>,
  userId: string,
  email: string,
  keepSession: string,
): Promise<string[]> {
  try {
    return await db.transaction().execute(async (trx) => {
      const holder = await findUserByEmail(trx, email);
      if (holder && holder.id !== userId) throw emailTaken();
      await updateEmail(trx, userId, email);
      return endOtherCredentials(trx, userId, keepSession);
    });
  } catch (error) {
    // Two changes to one e-mail at once: the unique index refuses the second.
    if (isUniqueViolation(error, 'email_key')) throw emailTaken();
    throw error;
  }
}

/**
 * Through the write path, whose lock order keeps it from deadlocking (decision 020). The books the
 * person alone owns go with the account; of the others they only leave.
 */
export async function deleteAccount(
  db: Kysely<Database>,
  writes: Pick<WritePath<AnyCommand>, 'removeBooks'>,
  user: SessionUser,
  row: { id: string; email_key: string },
): Promise<void> {
  const ownedAlone = await findBooksOwnedAlone(db, user.id);
  await writes.removeBooks(ownedAlone, async (trx) => {
    // Checked again inside: an owner may have been added or have left since.
    const stillAlone = await findBooksOwnedAlone(trx, user.id);
    if (stillAlone.some((bookId) => !ownedAlone.includes(bookId))) {
      throw new AppError(409, 'conflict', 'The books of this account changed; try again');
    }
    // Checked inside the transaction: someone may have joined since the page was loaded.
    if (user.isAdmin && (await countUsers(trx)) > 1) {
      throw new AppError(
        409,
        'conflict',
        'You are the administrator of this Balance and other accounts depend on you, so this account cannot be deleted',
      );
    }
    await deleteSessionsOfUser(trx, user.id);
    await removeBooks(trx, stillAlone);
    await deleteUser(trx, row);
  });
}

export async function disableUser(
  db: Kysely<Database>,
  userId: string,
  now: number,
): Promise<string[]> {
  return db.transaction().execute(async (trx) => {
    if (!(await findUserById(trx, userId))) throw notFound('No such account');
    await setDisabled(trx, userId, now);
    return deleteSessionsOfUser(trx, userId);
  });
}

export async function enableUser(db: Kysely<Database>, userId: string): Promise<void> {
  if (!(await findUserById(db, userId))) throw notFound('No such account');
  await setDisabled(db, userId, null);
}

export interface OneTimeLink {
  path: string;
  expiresAt: number;
}

/** 256 random bits; like a session's, only the hash is stored, so a leaked table opens nothing. */
function newToken(): { token: string; tokenHash: string } {
  const token = randomBytes(32).toString('base64url');
  return { token, tokenHash: hashToken(token) };
}

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

export async function createInvitationLink(
  db: Kysely<Database>,
  email: string,
  createdBy: string,
  now: number,
): Promise<OneTimeLink> {
  if (await findUserByEmail(db, email)) throw emailTaken();
  const { token, tokenHash } = newToken();
  const expiresAt = now + invitationValidity;
  await insertInvitation(db, { tokenHash, email, createdBy, now, expiresAt });
  return { path: `/join?invite=${token}`, expiresAt };
}

export function registrationClosed(): AppError {
  return new AppError(403, 'registration_closed', 'Registration is closed');
}

function invalidInvitation(): AppError {
  return new AppError(
    403,
    'invalid_link',
    'This invitation is not valid for this e-mail: it may have been used or have expired',
  );
}

function emailTaken(): AppError {
  return new AppError(409, 'email_taken', 'This e-mail is already registered', {
    fields: { email: 'is already registered' },
  });
}

function emailTakenAtJoin(): AppError {
  return new AppError(409, 'email_taken', 'This e-mail is already registered.', {
    fields: { email: 'This e-mail is already registered.' },
  });
}
