import type { ClientLink } from '../../../shared/schemas/client-links.ts';
import { notFound } from '../../errors.ts';
import { newId } from '../../ids.ts';
import { toSnapshot } from '../clients/clients.queries.ts';
import { currentClient } from '../clients/current-client.ts';
import { command, unchanged, type ChangeContext, type Unchanged } from '../events/write-path.ts';
import { toClientLink } from './client-link.ts';
import {
  claimOpenedEvent,
  insertLink,
  revokeCurrentLink,
  revokeLinks,
} from './client-links.repository.ts';
import type { LinkMakerKind } from './client-links.table.ts';
import { findLinksOfOwner } from './client-links.queries.ts';

// A client's link is made and revoked on the write path, so the client's history and the owner's
// other tabs see it. Only the secret's hash reaches a command: the secret never leaves the
// request that made it.

const openedEventEveryMs = 60 * 60_000;

/**
 * The credential that makes a link, kept on its row (a session is deleted when it ends): so that
 * after a password change the owner can tell the links a stolen session made from their own.
 */
export interface LinkMaker {
  kind: LinkMakerKind;
  /** The session's public id or the token's id. */
  id: string | null;
  /** The session's User-Agent or the token's name. */
  label: string | null;
  startedAt: number | null;
}

export const reminderMaker: LinkMaker = {
  kind: 'reminder',
  id: null,
  label: null,
  startedAt: null,
};

/**
 * Makes the client's new link inside a change already under way, the one it had, if any, ending
 * in the same transaction: the owner's "Create link", and a reminder sent with its link.
 */
export async function replaceClientLink(
  trx: ChangeContext['trx'],
  bookId: string,
  clientId: string,
  secretHash: string,
  expiresAt: number | null,
  now: number,
  maker: LinkMaker,
): Promise<ClientLink> {
  await revokeCurrentLink(trx, bookId, clientId, now);
  const row = {
    id: newId(),
    book_id: bookId,
    client_id: clientId,
    secret_hash: secretHash,
    created_at: now,
    expires_at: expiresAt,
    revoked_at: null,
    last_opened_at: null,
    opened_recorded_at: null,
    made_by: maker.kind,
    made_by_id: maker.id,
    made_by_label: maker.label,
    made_by_started_at: maker.startedAt,
  };
  await insertLink(trx, row);
  return toClientLink(row, now);
}

/** A new link for the client; the one it had, if any, stops working in the same transaction. */
export const createClientLink = command(
  async (
    { trx, record, now },
    bookId,
    clientId: string,
    secretHash: string,
    expiresAt: number | null,
    maker: LinkMaker,
  ): Promise<ClientLink> => {
    const client = await currentClient(trx, bookId, clientId);
    const link = await replaceClientLink(trx, bookId, clientId, secretHash, expiresAt, now, maker);
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
  async ({ trx, record, now }, bookId, clientId: string): Promise<void> => {
    const client = await currentClient(trx, bookId, clientId);
    if (!(await revokeCurrentLink(trx, bookId, clientId, now)))
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

/**
 * The owner's chosen links, revoked in one step (the account page, after a password change), each
 * in its client's history. Another owner's link, or no link, is not found and nothing changes; a
 * link already revoked is passed over.
 */
export const revokeClientLinks = command(
  async ({ trx, record, now }, bookId, ids: string[]): Promise<number | Unchanged<number>> => {
    const unique = [...new Set(ids)];
    const links = await findLinksOfOwner(trx, bookId, unique);
    if (links.length < unique.length) throw notFound('No such link');
    const live = links.filter((link) => link.revoked_at === null);
    if (live.length === 0) return unchanged(0);
    await revokeLinks(
      trx,
      bookId,
      live.map((link) => link.id),
      now,
    );
    for (const link of live) {
      const client = await currentClient(trx, bookId, link.client_id);
      const snapshot = toSnapshot(client);
      await record({
        clientId: link.client_id,
        action: 'link_revoked',
        version: client.version,
        before: snapshot,
        after: snapshot,
      });
    }
    return live.length;
  },
);

/** One event an hour per link at most, however often the client reloads the page. */
export const recordLinkOpened = command(
  async ({ trx, record, now }, bookId, linkId: string, clientId: string) => {
    if (!(await claimOpenedEvent(trx, linkId, now, openedEventEveryMs))) return unchanged(false);
    const client = await currentClient(trx, bookId, clientId);
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
