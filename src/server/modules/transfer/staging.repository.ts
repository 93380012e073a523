// A large import's staging book (decision 042; a staging account before migration 0045): a book
// with no member, listed in `staged_imports` with the book it is for. Every read asks for its own
// book's id, so what is written under this one is seen by nobody until it is made the book's.
import type { Transaction } from 'kysely';
import type { Database } from '../../db/database.ts';
import { newId } from '../../ids.ts';

export async function insertStaging(
  trx: Transaction<Database>,
  bookId: string,
  now: number,
): Promise<string> {
  const id = newId();
  // No member: no session or token can act in it.
  await trx.insertInto('books').values({ id, created_at: now }).execute();
  await trx.insertInto('staged_imports').values({ id, book_id: bookId, started_at: now }).execute();
  return id;
}

/** The staging book and what is left under it (its kept sums; its clients are gone first). */
export async function deleteStaging(trx: Transaction<Database>, stagingId: string): Promise<void> {
  await trx.deleteFrom('books').where('id', '=', stagingId).execute();
}
