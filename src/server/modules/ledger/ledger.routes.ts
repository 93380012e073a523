import { currentBook } from '../books/current-book.ts';
import type { FastifyPluginAsync } from 'fastify';
import { apiRoutes } from '../../../shared/api-routes.ts';
import { handle } from '../../described-route.ts';
import { entryPageSizeDefault } from '../../../shared/schemas/ledger.ts';
import { AppError, notFound } from '../../errors.ts';
import { requireUser } from '../auth/session.ts';
import { findClient } from '../clients/clients.queries.ts';
import { checkedClientId as clientId, clientNotFound } from '../clients/current-client.ts';
import { recordEntry, setBalance, voidEntry } from './ledger.commands.ts';
import {
  decodeEntryCursor,
  encodeEntryCursor,
  InvalidEntryCursorError,
  listEntries,
} from './ledger.queries.ts';

/** Entry ids are positive whole numbers; anything else is simply not found. */
const entryId = (id: string) => {
  if (!/^[1-9]\d{0,14}$/.test(id)) throw notFound('Entry not found');
  return Number(id);
};

/** A client's ledger: its entries, and the charges, payments, credits, voids and balance set. */
export const ledgerRoutes: FastifyPluginAsync = async (app) => {
  const { kysely: db } = app.db;
  const { writes } = app;
  app.addHook('onRequest', requireUser);

  handle(app, apiRoutes.updateBalance, async (request) =>
    writes.run(setBalance, currentBook(request), clientId(request.params.id), request.body),
  );

  handle(app, apiRoutes.clientEntries, async (request) => {
    const bookId = currentBook(request).id;
    const id = clientId(request.params.id);
    const { cursor, limit, kind } = request.query;
    let before;
    try {
      before = cursor === undefined ? undefined : decodeEntryCursor(cursor);
    } catch (error) {
      if (!(error instanceof InvalidEntryCursorError)) throw error;
      throw new AppError(400, 'validation', 'Invalid cursor', {
        fields: { cursor: 'This value is invalid.' },
      });
    }
    const [client, page] = await Promise.all([
      findClient(db, bookId, id),
      listEntries(db, bookId, id, {
        before,
        kind,
        limit: limit ? Number(limit) : entryPageSizeDefault,
      }),
    ]);
    if (!client) throw clientNotFound();
    const first = page.entries[0];
    return {
      entries: page.entries,
      nextCursor: page.earlier && first ? encodeEntryCursor(first) : null,
    };
  });

  handle(app, apiRoutes.recordEntry, async (request, reply) => {
    const book = currentBook(request);
    if (book.role === 'collector' && request.body.kind !== 'payment') {
      throw new AppError(403, 'forbidden', 'A collector records payments only');
    }
    const recorded = await writes.run(recordEntry, book, clientId(request.params.id), request.body);
    return reply.status(201).send(recorded);
  });

  handle(app, apiRoutes.voidEntry, async (request, reply) => {
    const { id, entryId: entry } = request.params;
    const recorded = await writes.run(
      voidEntry,
      currentBook(request),
      clientId(id),
      entryId(entry),
      request.body.reason,
    );
    return reply.status(201).send(recorded);
  });
};
