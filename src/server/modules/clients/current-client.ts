import type { Transaction } from 'kysely';
import type { Client } from '../../../shared/schemas/clients.ts';
import type { Database } from '../../db/database.ts';
import { AppError, notFound } from '../../errors.ts';
import { findClient } from './clients.queries.ts';

// The client a change is about, and the answers when it is gone or changed meanwhile: shared by
// the client's own commands and its ledger's.

export const clientNotFound = () => notFound('Client not found');

export const conflict = () =>
  new AppError(
    409,
    'conflict',
    'This client was changed elsewhere. Its current values are shown; make your change again.',
  );

/** Ids we issue are 22 base64url characters; anything else is simply not found. */
export const checkedClientId = (id: string) => {
  if (!/^[\w-]{22}$/.test(id)) throw clientNotFound();
  return id;
};

export async function currentClient(
  trx: Transaction<Database>,
  ownerId: string,
  id: string,
): Promise<Client> {
  const client = await findClient(trx, ownerId, id);
  if (!client) throw clientNotFound();
  return client;
}
