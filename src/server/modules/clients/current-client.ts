import type { Transaction } from 'kysely';
import type { Client } from '../../../shared/schemas/clients.ts';
import type { Database } from '../../db/database.ts';
import { AppError, notFound } from '../../errors.ts';
import { checkedId } from '../../ids.ts';
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

/** A client's id from an address: one of a shape we never issue is a client not found. */
export const checkedClientId = (id: string) => checkedId(id, clientNotFound);

export async function currentClient(
  trx: Transaction<Database>,
  bookId: string,
  id: string,
): Promise<Client> {
  const client = await findClient(trx, bookId, id);
  if (!client) throw clientNotFound();
  return client;
}
