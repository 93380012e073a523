import type { Kysely } from 'kysely';
import type { Database } from '../../db/database.ts';
import { isUniqueViolation } from '../../db/errors.ts';

export async function claimKey(
  db: Kysely<Database>,
  row: { userId: string; key: string; requestHash: string; now: number },
): Promise<boolean> {
  try {
    await db
      .insertInto('idempotency_keys')
      .values({
        user_id: row.userId,
        key: row.key,
        request_hash: row.requestHash,
        status: null,
        content_type: null,
        body: null,
        created_at: row.now,
      })
      .execute();
    return true;
  } catch (error) {
    if (isUniqueViolation(error)) return false;
    throw error;
  }
}

export async function findKey(db: Kysely<Database>, userId: string, key: string) {
  return db
    .selectFrom('idempotency_keys')
    .selectAll()
    .where('user_id', '=', userId)
    .where('key', '=', key)
    .executeTakeFirst();
}

export async function storeAnswer(
  db: Kysely<Database>,
  userId: string,
  key: string,
  answer: { status: number; contentType: string | null; body: string },
): Promise<void> {
  await db
    .updateTable('idempotency_keys')
    .set({ status: answer.status, content_type: answer.contentType, body: answer.body })
    .where('user_id', '=', userId)
    .where('key', '=', key)
    .execute();
}

export async function releaseKey(db: Kysely<Database>, userId: string, key: string): Promise<void> {
  await db
    .deleteFrom('idempotency_keys')
    .where('user_id', '=', userId)
    .where('key', '=', key)
    .execute();
}

export async function deleteOldKeys(
  db: Kysely<Database>,
  limits: { before: number; staleBefore: number },
): Promise<void> {
  await db
    .deleteFrom('idempotency_keys')
    .where((eb) =>
      eb.or([
        eb('created_at', '<', limits.before),
        eb.and([eb('status', 'is', null), eb('created_at', '<', limits.staleBefore)]),
      ]),
    )
    .execute();
}
