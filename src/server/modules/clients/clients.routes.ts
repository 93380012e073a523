import { z } from 'zod/mini';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  balanceUpdateSchema,
  clientIdParams,
  clientInputSchema,
  clientListQuerySchema,
  clientListSchema,
  clientSchema,
  type ClientList,
  clientUpdateSchema,
  historyListSchema,
} from '../../../shared/schemas/clients.ts';
import { AppError, notFound } from '../../errors.ts';
import { newId } from '../../ids.ts';
import { currentUser, requireUser } from '../auth/session.ts';
import { appendEvent, latestEventId } from '../events/events.repository.ts';
import { StampedCache } from './stamped-cache.ts';
import { readPreferences, readRates } from '../settings/settings.repository.ts';
import { convertToUsd } from '../../../shared/exchange.ts';
import {
  deleteClient,
  findClient,
  insertClient,
  countClients,
  InvalidCursorError,
  listClientsPage,
  type ClientFilter,
  listHistory,
  toSnapshot,
  totalsByCurrency,
  updateClientIfVersion,
  type ClientValues,
} from './clients.repository.ts';

type ListSummary = Pick<ClientList, 'count' | 'totals' | 'converted'>;

/** What the dashboard loads at a time: enough to fill a screen, never all 100,000. */
const defaultPageSize = 50;

const clientNotFound = () => notFound('Client not found');
const conflict = () =>
  new AppError(
    409,
    'conflict',
    'This client was changed elsewhere. Its current values are shown; make your change again.',
  );

/** Ids we issue are 22 base64url characters; anything else is simply not found. */
const clientId = (id: string) => {
  if (!/^[\w-]{22}$/.test(id)) throw clientNotFound();
  return id;
};

export const clientsRoutes: FastifyPluginAsyncZod = async (app) => {
  const { kysely: db, dialect } = app.db;
  // Before the body is read: a visitor's request costs no parsing and learns nothing of its fields.
  app.addHook('onRequest', requireUser);
  // Every change wakes the owner's live streams once it is committed.
  app.addHook('onResponse', async (request, reply) => {
    if (request.method !== 'GET' && reply.statusCode < 300 && request.user)
      await app.feed.publishSafely(request.user.id);
  });

  /** Whole answers of the list, ready to send, for owners whose data has not changed since. */
  const listAnswers = new StampedCache<string>({
    maxEntries: 2000,
    maxSize: 32 * 1024 * 1024,
    sizeOf: (body) => body.length,
  });
  /** Count and totals by filter: the same for every page of one list, so scrolling reuses them. */
  const listSummaries = new StampedCache<ListSummary>({ maxEntries: 2000 });

  async function summarize(filter: ClientFilter, stamp: number): Promise<ListSummary> {
    const key = JSON.stringify([filter.ownerId, filter.search, filter.currency, filter.owes]);
    const cached = listSummaries.get(key, stamp);
    if (cached) return cached;
    const [count, totals, rates] = await Promise.all([
      countClients(db, filter),
      totalsByCurrency(db, filter),
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
    // then sent as the text kept in listAnswers.
    { schema: { querystring: clientListQuerySchema } },
    async (request, reply) => {
      const owner = currentUser(request);
      const { q, currency, owes, sort = 'name', dir = 'asc', cursor, limit } = request.query;
      const filter: ClientFilter = {
        ownerId: owner.id,
        search: q,
        currency,
        owes: owes === 'true',
      };
      const pageSize = limit ? Number(limit) : defaultPageSize;
      // Read before anything else: what follows reflects this state or a newer one.
      const stamp = await latestEventId(db, owner.id);
      const key = JSON.stringify([owner.id, q, currency, owes, sort, dir, cursor, pageSize]);
      let body = listAnswers.get(key, stamp);
      if (body === undefined) {
        let page: Awaited<ReturnType<typeof listClientsPage>>;
        try {
          page = await listClientsPage(db, filter, { sort, dir, cursor, limit: pageSize });
        } catch (error) {
          if (!(error instanceof InvalidCursorError)) throw error;
          throw new AppError(400, 'validation', 'Invalid cursor', {
            fields: { cursor: 'is invalid' },
          });
        }
        // Checked against the schema as the route's serializer would, once, then kept as text.
        body = JSON.stringify(
          clientListSchema.parse({ ...page, ...(await summarize(filter, stamp)) }),
        );
        listAnswers.set(key, stamp, body);
      }
      return reply.type('application/json; charset=utf-8').send(body);
    },
  );

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
      const id = clientId(request.params.id);
      const entries = await listHistory(db, ownerId, id);
      // A deleted client's history stays readable from its own entries; a foreign id has none.
      if (entries.length === 0) throw clientNotFound();
      return { entries };
    },
  );

  app.post(
    '/clients',
    { schema: { body: clientInputSchema, response: { 201: clientSchema } } },
    async (request, reply) => {
      const ownerId = currentUser(request).id;
      // With the preference on, the form has no balance and a hand-made request cannot add one.
      const { disableBalanceOnAdd } = await readPreferences(db, ownerId);
      const values: ClientValues = {
        ...request.body,
        balance: disableBalanceOnAdd ? 0 : (request.body.balance ?? 0),
      };
      const now = Date.now();
      const client = await db.transaction().execute(async (trx) => {
        const created = await insertClient(trx, { ...values, id: newId(), ownerId, now });
        await appendEvent(trx, dialect, {
          clientId: created.id,
          ownerId,
          action: 'created',
          at: now,
          version: created.version,
          before: null,
          after: toSnapshot(created),
        });
        return created;
      });
      return reply.status(201).send(client);
    },
  );

  /** Applies a change only to the version the user saw; the history entry lands in the same transaction. */
  async function changeClient(
    ownerId: string,
    id: string,
    expectedVersion: number,
    action: 'edited' | 'balance_changed',
    change: (current: ClientValues) => ClientValues,
  ) {
    const now = Date.now();
    return db.transaction().execute(async (trx) => {
      const current = await findClient(trx, ownerId, id);
      if (!current) throw clientNotFound();
      if (current.version !== expectedVersion) throw conflict();
      const updated = await updateClientIfVersion(
        trx,
        ownerId,
        id,
        expectedVersion,
        change(current),
        now,
      );
      if (!updated) throw conflict();
      await appendEvent(trx, dialect, {
        clientId: id,
        ownerId,
        action,
        at: now,
        version: updated.version,
        before: toSnapshot(current),
        after: toSnapshot(updated),
      });
      return updated;
    });
  }

  app.put(
    '/clients/:id',
    {
      schema: { params: clientIdParams, body: clientUpdateSchema, response: { 200: clientSchema } },
    },
    async (request) => {
      const ownerId = currentUser(request).id;
      const { version, ...values } = request.body;
      // With the preference on, the edit form has no balance and the stored one is kept.
      const { disableBalanceOnEdit } = await readPreferences(db, ownerId);
      return changeClient(ownerId, clientId(request.params.id), version, 'edited', (current) => ({
        ...values,
        // Minor units mean something only in their currency: both stay as stored.
        balance: disableBalanceOnEdit ? current.balance : values.balance,
        currency: disableBalanceOnEdit ? current.currency : values.currency,
      }));
    },
  );

  app.patch(
    '/clients/:id/balance',
    {
      schema: {
        params: clientIdParams,
        body: balanceUpdateSchema,
        response: { 200: clientSchema },
      },
    },
    async (request) => {
      const { version, balance } = request.body;
      return changeClient(
        currentUser(request).id,
        clientId(request.params.id),
        version,
        'balance_changed',
        (current) => ({
          ...current,
          balance,
        }),
      );
    },
  );

  app.delete(
    '/clients/:id',
    { schema: { params: clientIdParams, response: { 204: z.null() } } },
    async (request, reply) => {
      const ownerId = currentUser(request).id;
      const id = clientId(request.params.id);
      const now = Date.now();
      await db.transaction().execute(async (trx) => {
        const current = await findClient(trx, ownerId, id);
        if (!current || !(await deleteClient(trx, ownerId, id))) throw clientNotFound();
        await appendEvent(trx, dialect, {
          clientId: id,
          ownerId,
          action: 'deleted',
          at: now,
          version: current.version + 1,
          before: toSnapshot(current),
          after: null,
        });
      });
      return reply.status(204).send(null);
    },
  );
};
