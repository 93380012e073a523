import { z } from 'zod/mini';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  clientIdParams,
  clientInputSchema,
  clientListQuerySchema,
  clientListSchema,
  clientSchema,
  type Ageing,
  type AgeingBucketName,
  ageingSchema,
  type ClientList,
  clientUpdateSchema,
} from '../../../shared/schemas/clients.ts';
import { utcDay } from '../../../shared/dates.ts';
import { currencies } from '../../../shared/money.ts';
import { historyListSchema } from '../../../shared/schemas/events.ts';
import { convertToUsd } from '../../../shared/exchange.ts';
import { AppError } from '../../errors.ts';
import { currentUser, requireUser } from '../auth/session.ts';
import { latestEventStamp, readClientHistory } from '../events/events.queries.ts';
import { readRates } from '../settings/settings.queries.ts';
import { addClient, deleteClient, editClient } from './clients.commands.ts';
import {
  findClient,
  InvalidCursorError,
  listClientsPage,
  summarizeClients,
  type ClientFilter,
} from './clients.queries.ts';
import { checkedClientId as clientId, clientNotFound } from './current-client.ts';
import { ageingByCurrency } from '../ledger/ledger.queries.ts';
import { KeptAnswer } from './kept-answer.ts';
import { StampedCache } from './stamped-cache.ts';

type ListSummary = Pick<ClientList, 'count' | 'totals' | 'converted'>;

/** What the dashboard loads at a time: enough to fill a screen, never all 100,000. */
const defaultPageSize = 50;

/**
 * From this many matches on, a filtered page is read along its sort order rather than by sorting
 * every match: reading in order then meets a page's worth within about (all / matches) × 50 rows.
 */
const manyMatches = 5000;

export const clientsRoutes: FastifyPluginAsyncZod = async (app) => {
  const { kysely: db } = app.db;
  const { writes } = app;
  // Before the body is read: a visitor's request costs no parsing and learns nothing of its fields.
  app.addHook('onRequest', requireUser);

  /**
   * Whole answers of the list, ready to send, for owners whose data has not changed since. Kept
   * as UTF-8 bytes: sent again as text, each answer was encoded and measured anew, about a
   * third of the route's time. The size counted is the JSON's; an answer's gzip, once made, adds
   * about a quarter of that.
   */
  const listAnswers = new StampedCache<KeptAnswer>({
    maxEntries: 2000,
    maxSize: 32 * 1024 * 1024,
    sizeOf: (answer) => answer.json.length,
  });
  /** Count and totals by filter: the same for every page of one list, so scrolling reuses them. */
  const listSummaries = new StampedCache<ListSummary>({ maxEntries: 2000 });

  async function summarize(filter: ClientFilter, stamp: number): Promise<ListSummary> {
    const key = JSON.stringify([
      filter.ownerId,
      filter.search,
      filter.currency,
      filter.owes,
      filter.overdueOn,
    ]);
    const cached = listSummaries.get(key, stamp);
    if (cached) return cached;
    const [{ count, totals }, rates] = await Promise.all([
      summarizeClients(db, filter),
      readRates(db, filter.ownerId),
    ]);
    const converted = convertToUsd(
      totals.map(({ currency: code, total }) => ({ currency: code, total: BigInt(total) })),
      Object.fromEntries(rates.map((rate) => [rate.currency, rate])),
    );
    const summary: ListSummary = {
      count,
      totals,
      converted: converted && {
        usdTotal: converted.usdMinor.toString(),
        ratesDate: converted.ratesDate,
      },
    };
    listSummaries.set(key, stamp, summary);
    return summary;
  }

  app.get(
    '/clients',
    // No response schema: the answer is checked against clientListSchema when it is computed and
    // then sent as the bytes kept in listAnswers.
    { schema: { querystring: clientListQuerySchema } },
    async (request, reply) => {
      const owner = currentUser(request);
      const {
        q,
        currency,
        owes,
        overdue,
        sort = 'name',
        dir = 'asc',
        cursor,
        limit,
      } = request.query;
      // What is overdue changes at midnight without any event: the day is part of every key.
      const asOf = utcDay();
      const filter: ClientFilter = {
        ownerId: owner.id,
        search: q,
        currency,
        owes: owes === 'true',
        overdueOn: overdue === 'true' ? asOf : undefined,
        dialect: app.db.dialect,
      };
      const pageSize = limit ? Number(limit) : defaultPageSize;
      // Read before anything else: what follows reflects this state or a newer one.
      const stamp = await latestEventStamp(app.db, owner.id);
      const key = JSON.stringify([
        owner.id,
        asOf,
        q,
        currency,
        owes,
        overdue,
        sort,
        dir,
        cursor,
        pageSize,
      ]);
      let answer = listAnswers.get(key, stamp);
      if (answer === undefined) {
        const summary = await summarize(filter, stamp);
        let page: Awaited<ReturnType<typeof listClientsPage>>;
        try {
          page = await listClientsPage(db, filter, {
            sort,
            dir,
            cursor,
            limit: pageSize,
            manyMatches: summary.count >= manyMatches,
          });
        } catch (error) {
          if (!(error instanceof InvalidCursorError)) throw error;
          throw new AppError(400, 'validation', 'Invalid cursor', {
            fields: { cursor: 'This value is invalid.' },
          });
        }
        // Checked against the schema as the route's serializer would, once, then kept as bytes.
        answer = new KeptAnswer(
          Buffer.from(JSON.stringify(clientListSchema.parse({ ...page, ...summary, asOf }))),
        );
        listAnswers.set(key, stamp, answer);
      }
      const { bytes, encoding } = answer.bytesFor(request.headers['accept-encoding']);
      if (encoding) reply.header('content-encoding', encoding);
      return reply
        .type('application/json; charset=utf-8')
        .header('vary', 'accept-encoding')
        .send(bytes);
    },
  );

  /** The ageing of the owner's unpaid amounts, kept like the list's answers (and by day). */
  const ageingAnswers = new StampedCache<Ageing>({ maxEntries: 2000 });

  app.get('/ageing', { schema: { response: { 200: ageingSchema } } }, async (request) => {
    const ownerId = currentUser(request).id;
    const stamp = await latestEventStamp(app.db, ownerId);
    const asOf = utcDay();
    const key = JSON.stringify([ownerId, asOf]);
    const kept = ageingAnswers.get(key, stamp);
    if (kept) return kept;
    const rows = await ageingByCurrency(db, ownerId, asOf);
    const ageing: Ageing = {
      asOf,
      currencies: currencies.flatMap((currency) => {
        const mine = rows.filter((row) => row.currency === currency);
        if (mine.length === 0) return [];
        const sumOf = (bucket: AgeingBucketName) =>
          mine.filter((row) => row.bucket === bucket).reduce((sum, row) => sum + row.total, 0n);
        const buckets = {
          current: sumOf('current'),
          days1to30: sumOf('days1to30'),
          days31to60: sumOf('days31to60'),
          days61to90: sumOf('days61to90'),
          over90: sumOf('over90'),
        };
        const owed = Object.values(buckets).reduce((sum, value) => sum + value, 0n);
        return [
          {
            currency,
            owed: owed.toString(),
            buckets: Object.fromEntries(
              Object.entries(buckets).map(([name, value]) => [name, value.toString()]),
            ) as Ageing['currencies'][number]['buckets'],
          },
        ];
      }),
    };
    ageingAnswers.set(key, stamp, ageing);
    return ageing;
  });

  app.get(
    '/clients/:id',
    { schema: { params: clientIdParams, response: { 200: clientSchema } } },
    async (request) => {
      const client = await findClient(db, currentUser(request).id, clientId(request.params.id));
      if (!client) throw clientNotFound();
      return client;
    },
  );

  app.get(
    '/clients/:id/history',
    { schema: { params: clientIdParams, response: { 200: historyListSchema } } },
    async (request) => {
      const ownerId = currentUser(request).id;
      const entries = await readClientHistory(db, ownerId, clientId(request.params.id));
      // A deleted client's history stays readable from its own entries; a foreign id has none.
      if (entries.length === 0) throw clientNotFound();
      return { entries };
    },
  );

  app.post(
    '/clients',
    { schema: { body: clientInputSchema, response: { 201: clientSchema } } },
    async (request, reply) => {
      const client = await writes.run(addClient, currentUser(request).id, request.body);
      return reply.status(201).send(client);
    },
  );

  app.put(
    '/clients/:id',
    {
      schema: { params: clientIdParams, body: clientUpdateSchema, response: { 200: clientSchema } },
    },
    async (request) =>
      writes.run(editClient, currentUser(request).id, clientId(request.params.id), request.body),
  );

  app.delete(
    '/clients/:id',
    { schema: { params: clientIdParams, response: { 204: z.null() } } },
    async (request, reply) => {
      await writes.run(deleteClient, currentUser(request).id, clientId(request.params.id));
      return reply.status(204).send(null);
    },
  );
};
