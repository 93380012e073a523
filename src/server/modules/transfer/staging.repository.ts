// A large import's staging account (decision 042): a row of `users` that nobody signs in as,
// listed in `staged_imports` with the owner it is for. Every owner-scoped read asks for its own
// owner id, so what is written under this one is seen by nobody until it is made the owner's.
import type { Transaction } from 'kysely';
import type { Database } from '../../db/database.ts';
import { newId } from '../../ids.ts';

export async function insertStaging(
  trx: Transaction<Database>,
  ownerId: string,
  now: number,
): Promise<string> {
  const id = newId();
  const email = `${id}@staging.invalid`;
  await trx
    .insertInto('users')
    .values({
      id,
      email,
      email_key: email,
      // No password hash matches it, and the account is disabled: nobody signs in as it.
      password_hash: '',
      is_admin: 0,
      created_at: now,
      disabled_at: now,
    })
    .execute();
  await trx
    .insertInto('staged_imports')
    .values({ id, owner_id: ownerId, started_at: now })
    .execute();
  return id;
}

/** The staging account and what is left under it (its kept sums; its clients are gone first). */
export async function deleteStaging(trx: Transaction<Database>, stagingId: string): Promise<void> {
  await trx.deleteFrom('users').where('id', '=', stagingId).execute();
}
