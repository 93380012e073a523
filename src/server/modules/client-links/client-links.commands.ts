import type { ClientLink } from '../../../shared/schemas/client-links.ts';
import { notFound } from '../../errors.ts';
import { newId } from '../../ids.ts';
import { toSnapshot } from '../clients/clients.queries.ts';
import { currentClient } from '../clients/current-client.ts';
import { command, unchanged, type ChangeContext } from '../events/write-path.ts';
import { toClientLink } from './client-link.ts';
import { claimOpenedEvent, insertLink, revokeCurrentLink } from './client-links.repository.ts';

// A client's link is made and revoked on the write path, so the client's history and the owner's
// other tabs see it. Only the secret's hash reaches a command: the secret never leaves the
// request that made it.

const openedEventEveryMs = 60 * 60_000;

/**
 * Makes the client's new link inside a change already under way, the one it had, if any, ending
 * in the same transaction: the owner's "Create link", and a reminder sent with its link.
 */
export async function replaceClientLink(
  trx: ChangeContext['trx'],
  ownerId: string,
  clientId: string,
  secretHash: string,
  expiresAt: number | null,
  now: number,
): Promise<ClientLink> {
  await revokeCurrentLink(trx, ownerId, clientId, now);
  const row = {
    id: newId(),
    owner_id: ownerId,
    client_id: clientId,
    secret_hash: secretHash,
    created_at: now,
    expires_at: expiresAt,
    revoked_at: null,
    last_opened_at: null,
    opened_recorded_at: null,
  };
  await insertLink(trx, row);
  return toClientLink(row, now);
}

/** A new link for the client; the one it had, if any, stops working in the same transaction. */
export const createClientLink = command(
  'clientLinks.create',
  async (
    { trx, record, now },
    ownerId,
    clientId: string,
    secretHash: string,
    expiresAt: number | null,
  ): Promise<ClientLink> => {
    const client = await currentClient(trx, ownerId, clientId);
    const link = await replaceClientLink(trx, ownerId, clientId, secretHash, expiresAt, now);
    const snapshot = toSnapshot(client);
    await record({
      clientId,
      action: 'link_created',
      version: client.version,
      before: snapshot,
      after: snapshot,
    });
    return link;
  },
);

export const revokeClientLink = command(
  'clientLinks.revoke',
  async ({ trx, record, now }, ownerId, clientId: string): Promise<void> => {
    const client = await currentClient(trx, ownerId, clientId);
    if (!(await revokeCurrentLink(trx, ownerId, clientId, now)))
      throw notFound('This client has no link');
    const snapshot = toSnapshot(client);
    await record({
      clientId,
      action: 'link_revoked',
      version: client.version,
      before: snapshot,
      after: snapshot,
    });
  },
);

/** One event an hour per link at most, however often the client reloads the page. */
export const recordLinkOpened = command(
  'clientLinks.opened',
  async ({ trx, record, now }, ownerId, linkId: string, clientId: string) => {
    if (!(await claimOpenedEvent(trx, linkId, now, openedEventEveryMs))) return unchanged(false);
    const client = await currentClient(trx, ownerId, clientId);
    const snapshot = toSnapshot(client);
    await record({
      clientId,
      action: 'link_opened',
      version: client.version,
      before: snapshot,
      after: snapshot,
    });
    return true;
  },
);
