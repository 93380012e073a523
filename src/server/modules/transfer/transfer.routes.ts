import { findBookName, listMembers } from '../books/books.queries.ts';
import { currentBook } from '../books/current-book.ts';
import { stringify } from 'csv-stringify/sync';
import type { FastifyPluginAsync } from 'fastify';
import { apiRoutes } from '../../../shared/api-routes.ts';
import { handle } from '../../described-route.ts';
import { protectCell } from '../../../shared/csv.ts';
import { utcDay } from '../../../shared/dates.ts';
import { toDecimalText } from '../../../shared/money.ts';
import { currentUser, requireUser } from '../auth/session.ts';
import { entryKindLabels, paymentMethodLabels } from '../../../shared/schemas/ledger.ts';
import { exportVersion } from '../../../shared/schemas/restore.ts';
import { clientLanguages, listClientsPage, type ClientFilter } from '../clients/clients.queries.ts';
import { pausedClientIds, readPlan } from '../reminders/reminders.queries.ts';
import {
  readBankBatches,
  readBankLayouts,
  readBankLines,
  readPayerRules,
} from '../bank/bank.queries.ts';
import { readOwnerEntries, readPaymentTargets } from '../ledger/ledger.queries.ts';
import { readAllEvents } from '../events/events.queries.ts';
import {
  readBusinessSettings,
  readLockDate,
  readPreferences,
  readRates,
} from '../settings/settings.queries.ts';
import { itemsPerChunk, jsonStream, textStream } from './export-stream.ts';

// The business columns follow SPEC's six, so a file made before them reads the same way.
const csvColumns = [
  'First name',
  'Last name',
  'Email',
  'Phone',
  'Balance',
  'Currency',
  'Company',
  'Address line 1',
  'Address line 2',
  'City',
  'Postcode',
  'Country',
  'Tax ID',
  'Notes',
] as const;

const entryCsvColumns = [
  'First name',
  'Last name',
  'Email',
  'Date',
  'Kind',
  'Amount',
  'Currency',
  'Due date',
  'Reference',
  'Note',
  'Entry',
  'Voids entry',
  'Method',
] as const;

// A chunk's worth (export-stream.ts): each page is turned into clients in one go.
const exportBatch = itemsPerChunk;
const byteOrderMark = '\uFEFF';

type Reader = Parameters<typeof listClientsPage>[0];

async function* clientPages(db: Reader, filter: ClientFilter) {
  const read = (cursor: string | undefined) => {
    const page = listClientsPage(db, filter, {
      sort: 'name',
      dir: 'asc',
      cursor,
      limit: exportBatch,
    });
    // So a read failing while it waits (or after a cancel) is no unhandled rejection.
    page.catch(() => undefined);
    return page;
  };
  let next: ReturnType<typeof read> | null = read(undefined);
  while (next) {
    const page: Awaited<ReturnType<typeof read>> = await next;
    next = page.nextCursor ? read(page.nextCursor) : null;
    yield page.clients;
  }
}

async function* allClients(db: Reader, filter: ClientFilter) {
  for await (const clients of clientPages(db, filter)) yield* clients;
}

/** Each client with their own language (null: the owner's) and reminders switch. */
async function* exportedClients(db: Reader, bookId: string) {
  const paused = await pausedClientIds(db, bookId);
  for await (const clients of clientPages(db, { bookId })) {
    const languages = await clientLanguages(
      db,
      bookId,
      clients.map((client) => client.id),
    );
    for (const client of clients)
      yield {
        ...client,
        language: languages.get(client.id) ?? null,
        reminders: !paused.has(client.id),
      };
  }
}

async function* exportedEntries(entries: ReturnType<typeof readOwnerEntries>) {
  for await (const entry of entries) {
    yield {
      id: entry.id,
      clientId: entry.clientId,
      kind: entry.kind,
      amount: entry.amount,
      currency: entry.currency,
      date: entry.date,
      dueDate: entry.dueDate,
      reference: entry.reference,
      note: entry.note,
      voidOf: entry.voidOf,
      enteredAt: new Date(entry.createdAt).toISOString(),
      // Only on a payment from a bank statement: most entries would carry a null.
      ...(entry.bankLineId !== null && { bankLineId: entry.bankLineId }),
      // Only on a payment (version 6 on); a payment from before methods were kept has null.
      ...(entry.kind === 'payment' && { method: entry.method }),
      // Only on a correction (version 9 on): the entry it puts right.
      ...(entry.corrects !== null && { corrects: entry.corrects }),
    };
  }
}

const today = () => new Date().toISOString().slice(0, 10);

export const transferRoutes: FastifyPluginAsync = async (app) => {
  const { kysely: db } = app.db;
  app.addHook('onRequest', requireUser);

  handle(app, apiRoutes.exportClientsCsv, async (request, reply) => {
    const { q, currency, owes, overdue } = request.query;
    const filter: ClientFilter = {
      bookId: currentBook(request).id,
      search: q,
      currency,
      owes: owes === 'true',
      overdueOn: overdue === 'true' ? utcDay() : undefined,
      dialect: app.db.dialect,
    };
    // The byte order mark makes spreadsheet programs read the file as UTF-8.
    const head = byteOrderMark + stringify([], { header: true, columns: [...csvColumns] });
    const body = textStream(head, allClients(db, filter), (clients) =>
      stringify(
        clients.map((client) => [
          protectCell(client.firstName),
          protectCell(client.lastName),
          protectCell(client.email),
          protectCell(client.phone),
          toDecimalText(client.balance, client.currency),
          client.currency,
          protectCell(client.company),
          protectCell(client.addressLine1),
          protectCell(client.addressLine2),
          protectCell(client.city),
          protectCell(client.postcode),
          protectCell(client.country),
          protectCell(client.taxId),
          protectCell(client.notes),
        ]),
      ),
    );
    return reply
      .header('content-type', 'text/csv; charset=utf-8')
      .header('content-disposition', `attachment; filename="balance-clients-${today()}.csv"`)
      .send(body);
  });

  handle(app, apiRoutes.exportEntriesCsv, async (request, reply) => {
    const head = byteOrderMark + stringify([], { header: true, columns: [...entryCsvColumns] });
    const body = textStream(head, readOwnerEntries(db, currentBook(request).id), (entries) =>
      stringify(
        entries.map((entry) => [
          protectCell(entry.firstName),
          protectCell(entry.lastName),
          protectCell(entry.email),
          entry.date,
          entryKindLabels[entry.kind],
          toDecimalText(entry.amount, entry.currency),
          entry.currency,
          entry.dueDate ?? '',
          protectCell(entry.reference),
          protectCell(entry.note),
          String(entry.id),
          entry.voidOf === null ? '' : String(entry.voidOf),
          entry.method === null ? '' : paymentMethodLabels[entry.method],
        ]),
      ),
    );
    return reply
      .header('content-type', 'text/csv; charset=utf-8')
      .header('content-disposition', `attachment; filename="balance-entries-${today()}.csv"`)
      .send(body);
  });

  handle(app, apiRoutes.exportJson, async (request, reply) => {
    const user = currentUser(request);
    const { id: bookId } = currentBook(request);
    const [preferences, rates, business, reminderPlan, bookName, members, lockDate] =
      await Promise.all([
        readPreferences(db, bookId),
        readRates(db, bookId),
        readBusinessSettings(db, bookId),
        readPlan(db, bookId),
        findBookName(db, bookId),
        listMembers(db, bookId),
        readLockDate(db, bookId),
      ]);
    const body = jsonStream([
      ['format', 'balance-export'],
      ['version', exportVersion],
      ['exportedAt', new Date().toISOString()],
      ['account', { email: user.email }],
      [
        'book',
        {
          name: bookName,
          members: members.map((member) => ({ email: member.email, role: member.role })),
        },
      ],
      ['settings', { preferences, rates, business, reminderPlan, lockDate }],
      ['clients', exportedClients(db, bookId)],
      ['entries', exportedEntries(readOwnerEntries(db, bookId))],
      ['paymentTargets', readPaymentTargets(db, bookId)],
      ['history', readAllEvents(db, bookId)],
      ['bankBatches', readBankBatches(db, bookId)],
      ['bankLines', readBankLines(db, bookId)],
      ['bankPayerRules', readPayerRules(db, bookId)],
      ['bankLayouts', readBankLayouts(db, bookId)],
    ]);
    return reply
      .header('content-type', 'application/json; charset=utf-8')
      .header('content-disposition', `attachment; filename="balance-export-${today()}.json"`)
      .send(body);
  });
};
