import { currentBook } from '../books/current-book.ts';
import type { FastifyPluginAsync } from 'fastify';
import { apiRoutes } from '../../../shared/api-routes.ts';
import { clientListSchema, type ClientList } from '../../../shared/schemas/clients.ts';
import { utcDay } from '../../../shared/dates.ts';
import { convertToUsd } from '../../../shared/exchange.ts';
import { handle } from '../../described-route.ts';
import { AppError } from '../../errors.ts';
import { requireUser } from '../auth/session.ts';
import { readClientHistory } from '../events/events.queries.ts';
import { readRates } from '../settings/settings.queries.ts';
import { keptListSummary } from '../ledger/ledger.queries.ts';
import { addClient, deleteClient, editClient } from './clients.commands.ts';
import {
  findClient,
  InvalidCursorError,
  listClientsPage,
  summarizeClients,
  type ClientFilter,
} from './clients.queries.ts';
import { checkedClientId as clientId, clientNotFound } from './current-client.ts';
import { gzipIfAccepted } from './gzip-answer.ts';

type ListSummary = Pick<ClientList, 'count' | 'totals' | 'converted'>;

/** What the dashboard loads at a time: enough to fill a screen, never all 100,000. */
const defaultPageSize = 50;

/**
 * From this many matches on, a filtered page is read along its sort order rather than by sorting
 * every match: reading in order then meets a page's worth within about (all / matches) × 50 rows.
 */
const manyMatches = 5000;

export const clientsRoutes: FastifyPluginAsync = async (app) => {
  const { kysely: db } = app.db;
  const { writes } = app;
  // Before the body is read: a visitor's request costs no parsing and learns nothing of its fields.
  app.addHook('onRequest', requireUser);

  /**
   * Without a search, the count and totals are the few rows the write path keeps (decision 035);
   * a search, or owing and overdue at once, is counted over the matching clients.
   */
  async function countAndTotals(filter: ClientFilter) {
    // The kept sums are the whole book's: a collector's are counted over their own clients.
    const counted = filter.search?.trim() || filter.collectorId !== undefined;
    const kept = counted ? undefined : await keptListSummary(db, filter);
    return kept ?? summarizeClients(db, filter);
  }

  async function summarize(filter: ClientFilter): Promise<ListSummary> {
    const [{ count, totals }, rates] = await Promise.all([
      countAndTotals(filter),
      readRates(db, filter.bookId),
    ]);
    const converted = convertToUsd(
      totals.map(({ currency: code, total }) => ({ currency: code, total: BigInt(total) })),
      Object.fromEntries(rates.map((rate) => [rate.currency, rate])),
    );
    return {
      count,
      totals,
      converted: converted && {
        usdTotal: converted.usdMinor.toString(),
        ratesDate: converted.ratesDate,
      },
    };
  }

  // Checked against clientListSchema here, then sent as bytes, gzipped for a browser.
  handle(app, apiRoutes.clientList, async (request, reply) => {
    const book = currentBook(request);
    const { q, currency, owes, overdue, sort = 'name', dir = 'asc', cursor, limit } = request.query;
    const asOf = utcDay();
    const filter: ClientFilter = {
      bookId: book.id,
      // A collector's list is of their own clients, and so are its count and totals.
      collectorId: book.role === 'collector' ? book.actor.userId : undefined,
      search: q,
      currency,
      owes: owes === 'true',
      overdueOn: overdue === 'true' ? asOf : undefined,
      dialect: app.db.dialect,
    };
    const summary = await summarize(filter);
    let page: Awaited<ReturnType<typeof listClientsPage>>;
    try {
      page = await listClientsPage(db, filter, {
        sort,
        dir,
        cursor,
        limit: limit ? Number(limit) : defaultPageSize,
        manyMatches: summary.count >= manyMatches,
      });
    } catch (error) {
      if (!(error instanceof InvalidCursorError)) throw error;
      throw new AppError(400, 'validation', 'Invalid cursor', {
        fields: { cursor: 'This value is invalid.' },
      });
    }
    const json = Buffer.from(JSON.stringify(clientListSchema.parse({ ...page, ...summary, asOf })));
    const { bytes, encoding } = gzipIfAccepted(json, request.headers['accept-encoding']);
    if (encoding) reply.header('content-encoding', encoding);
    return reply
      .type('application/json; charset=utf-8')
      .header('vary', 'accept-encoding')
      .send(bytes);
  });

  handle(app, apiRoutes.client, async (request) => {
    const client = await findClient(db, currentBook(request).id, clientId(request.params.id));
    if (!client) throw clientNotFound();
    return client;
  });

  handle(app, apiRoutes.clientHistory, async (request) => {
    const bookId = currentBook(request).id;
    const entries = await readClientHistory(db, bookId, clientId(request.params.id));
    // A deleted client's history stays readable from its own entries; a foreign id has none.
    if (entries.length === 0) throw clientNotFound();
    return { entries };
  });

  handle(app, apiRoutes.addClient, async (request, reply) => {
    const client = await writes.run(addClient, currentBook(request), request.body);
    return reply.status(201).send(client);
  });

  handle(app, apiRoutes.updateClient, async (request) =>
    writes.run(editClient, currentBook(request), clientId(request.params.id), request.body),
  );

  handle(app, apiRoutes.deleteClient, async (request, reply) => {
    await writes.run(deleteClient, currentBook(request), clientId(request.params.id));
    return reply.status(204).send(null);
  });
};
