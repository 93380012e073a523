import { sql } from 'kysely';
import type { Executor } from '../../db/database.ts';
import { emailKey } from './accounts.queries.ts';

export async function deleteSessionsOfUser(
  db: Executor,
  userId: string,
  options: { except?: string } = {},
): Promise<string[]> {
  let query = db.deleteFrom('sessions').where('user_id', '=', userId);
  if (options.except !== undefined) query = query.where('token_hash', '!=', options.except);
  const rows = await query.returning('token_hash').execute();
  return rows.map((row) => row.token_hash);
}

export async function deleteSessionOfUser(
  db: Executor,
  userId: string,
  tokenHash: string,
): Promise<boolean> {
  const result = await db
    .deleteFrom('sessions')
    .where('user_id', '=', userId)
    .where('token_hash', '=', tokenHash)
    .executeTakeFirst();
  return result.numDeletedRows > 0n;
}

export async function updateEmail(db: Executor, userId: string, email: string): Promise<void> {
  await db
    .updateTable('users')
    .set({ email: email.trim(), email_key: emailKey(email) })
    .where('id', '=', userId)
    .execute();
}

// The data goes by ON DELETE CASCADE; what names the account by e-mail is deleted here.
export async function deleteUser(
  db: Executor,
  user: { id: string; email_key: string },
): Promise<void> {
  const suffix = `|${user.email_key}`;
  await db.deleteFrom('users').where('id', '=', user.id).execute();
  await db
    .deleteFrom('login_throttle')
    .where((eb) =>
      eb.or([
        eb('key', 'in', [`account:${user.email_key}`, `reset:email:${user.email_key}`]),
        // pair:<address>|<e-mail key>; e-mails are ASCII, so lengths agree in SQL and here.
        eb.and([
          eb('key', 'like', 'pair:%'),
          eb(sql`substr(key, length(key) - ${suffix.length - 1})`, '=', suffix),
        ]),
      ]),
    )
    .execute();
  await db.deleteFrom('invitations').where('email_key', '=', user.email_key).execute();
}

export async function setDisabled(
  db: Executor,
  userId: string,
  disabledAt: number | null,
): Promise<void> {
  await db.updateTable('users').set({ disabled_at: disabledAt }).where('id', '=', userId).execute();
}

export async function replacePasswordReset(
  db: Executor,
  row: { tokenHash: string; userId: string; now: number; expiresAt: number },
): Promise<void> {
  await db.deleteFrom('password_resets').where('user_id', '=', row.userId).execute();
  await db
    .insertInto('password_resets')
    .values({
      token_hash: row.tokenHash,
      user_id: row.userId,
      created_at: row.now,
      expires_at: row.expiresAt,
    })
    .execute();
}

export async function deletePasswordResetsOfUser(db: Executor, userId: string): Promise<void> {
  await db.deleteFrom('password_resets').where('user_id', '=', userId).execute();
}

/** Deleted as it is read, so two uses at once cannot both succeed. */
export async function takePasswordReset(
  db: Executor,
  tokenHash: string,
  now: number,
): Promise<string | null> {
  const row = await db
    .deleteFrom('password_resets')
    .where('token_hash', '=', tokenHash)
    .returning(['user_id', 'expires_at'])
    .executeTakeFirst();
  return row && row.expires_at > now ? row.user_id : null;
}

export async function insertInvitation(
  db: Executor,
  row: { tokenHash: string; email: string; createdBy: string; now: number; expiresAt: number },
): Promise<void> {
  await db
    .insertInto('invitations')
    .values({
      token_hash: row.tokenHash,
      email_key: emailKey(row.email),
      created_by: row.createdBy,
      created_at: row.now,
      expires_at: row.expiresAt,
    })
    .execute();
}

export async function takeInvitation(
  db: Executor,
  tokenHash: string,
  email: string,
  now: number,
): Promise<boolean> {
  const row = await db
    .deleteFrom('invitations')
    .where('token_hash', '=', tokenHash)
    .where('email_key', '=', emailKey(email))
    .where('expires_at', '>', now)
    .returning('token_hash')
    .executeTakeFirst();
  return row !== undefined;
}

export async function deleteExpiredLinks(db: Executor, now: number): Promise<void> {
  await db.deleteFrom('password_resets').where('expires_at', '<=', now).execute();
  await db.deleteFrom('invitations').where('expires_at', '<=', now).execute();
}
