import { sql, type Kysely, type Selectable, type Transaction } from 'kysely';
import type { Currency } from '../../../shared/money.ts';
import type { Client } from '../../../shared/schemas/clients.ts';
import type { EntryDetail } from '../../../shared/schemas/events.ts';
import type { Entry, EntryKind } from '../../../shared/schemas/ledger.ts';
import type { Database } from '../../db/database.ts';
import { toClient } from '../clients/clients.queries.ts';
import type { LedgerLine } from './ageing.ts';
import { addToLedgerMonths } from './ledger-months.repository.ts';
import {
  holdOwnerSums,
  keepClientSums,
  keepOpenSums,
  type OpenPart,
} from './kept-sums.repository.ts';
import type { EntriesTable } from './ledger.table.ts';

type Executor = Kysely<Database> | Transaction<Database>;
type EntryRow = Selectable<EntriesTable>;

/** Rows per INSERT: well inside both databases' limits on bound parameters. */
const insertBatch = 500;

export interface NewEntry {
  ownerId: string;
  clientId: string;
  kind: EntryKind;
  amount: number;
  currency: Currency;
  date: string;
  dueDate: string | null;
  note: string;
  reference?: string;
  voidOf: number | null;
  createdBy: string;
  /** What of it is unpaid from the start: only a new client's opening balance knows at once. */
  openAmount?: number;
  /** A payment from a bank statement: its line (an export's, restored). */
  bankLineId?: string | null;
}

/** An entry's row as every insert writes it. */
export const toEntryRow = (entry: NewEntry, now: number) => ({
  owner_id: entry.ownerId,
  client_id: entry.clientId,
  kind: entry.kind,
  amount: entry.amount,
  currency: entry.currency,
  occurred_on: entry.date,
  due_on: entry.dueDate,
  note: entry.note,
  reference: entry.reference ?? '',
  void_of: entry.voidOf,
  created_by: entry.createdBy,
  created_at: now,
  open_amount: entry.openAmount ?? 0,
  bank_line_id: entry.bankLineId ?? null,
});

/** What the history keeps of an entry. */
export function toEntryDetail(row: EntryRow): EntryDetail {
  return {
    entryId: row.id,
    kind: row.kind,
    amount: row.amount,
    currency: row.currency,
    date: row.occurred_on,
    note: row.note,
    voidOf: row.void_of,
    dueDate: row.due_on,
    reference: row.reference,
  };
}

/**
 * Sets an entry's day, due day and reference: only an opening balance's are ever changed. What of
 * it is unpaid moves to its new due day in the kept sums.
 */
export async function setEntryTerms(
  trx: Transaction<Database>,
  ownerId: string,
  entryId: number,
  terms: { date: string; dueDate: string | null; reference: string },
): Promise<EntryRow> {
  await holdOwnerSums(trx, ownerId);
  const before = await trx
    .selectFrom('entries')
    .select(['currency', 'occurred_on', 'due_on', 'open_amount'])
    .where('id', '=', entryId)
    .where('owner_id', '=', ownerId)
    .executeTakeFirst();
  if (!before) throw new Error('the entry to change is gone');
  const row = await trx
    .updateTable('entries')
    .set({ occurred_on: terms.date, due_on: terms.dueDate, reference: terms.reference })
    .where('id', '=', entryId)
    .returningAll()
    .executeTakeFirst();
  if (!row) throw new Error('the entry to change is gone');
  const open = Number(before.open_amount);
  await keepOpenSums(trx, ownerId, [
    { currency: before.currency, day: before.due_on ?? before.occurred_on, amount: -open },
    { currency: row.currency, day: row.due_on ?? row.occurred_on, amount: open },
  ]);
  return row;
}

export async function insertEntry(
  trx: Transaction<Database>,
  entry: NewEntry,
  now: number,
): Promise<EntryRow> {
  // Before any row of the owner's figures is written (kept-sums.repository.ts says why).
  await holdOwnerSums(trx, entry.ownerId);
  const inserted = await trx
    .insertInto('entries')
    .values(toEntryRow(entry, now))
    .returningAll()
    .executeTakeFirst();
  if (!inserted) throw new Error('the new entry came back empty');
  await addToLedgerMonths(trx, [entry]);
  await keepOpenSums(trx, entry.ownerId, [openPartOf(entry)]);
  return inserted;
}

/** What of a new entry is unpaid, on the day it falls due: what the kept sums add. */
export const openPartOf = (
  entry: Pick<NewEntry, 'currency' | 'date' | 'dueDate' | 'openAmount'>,
): OpenPart => ({
  currency: entry.currency,
  day: entry.dueDate ?? entry.date,
  amount: entry.openAmount ?? 0,
});

/**
 * An entry brought back from an export file, at the time it was first entered; answers its new
 * id (ids are the instance's own), which a later void in the file needs. The restore adds all its
 * entries to the month figures and the kept sums at once (`addRestoredFigures`): a few
 * statements, not one an entry.
 */
export async function insertRestoredEntry(
  trx: Transaction<Database>,
  entry: NewEntry & { createdAt: number },
): Promise<number> {
  const row = await trx
    .insertInto('entries')
    .values(toEntryRow(entry, entry.createdAt))
    .returning('id')
    .executeTakeFirst();
  if (!row) throw new Error('the restored entry came back without its id');
  return row.id;
}

/** Adds many entries (an import's opening balances) in the caller's transaction. */
export async function insertEntries(
  trx: Transaction<Database>,
  entries: readonly NewEntry[],
  now: number,
): Promise<void> {
  const ownerId = entries[0]?.ownerId;
  if (ownerId === undefined) return;
  await holdOwnerSums(trx, ownerId);
  for (let start = 0; start < entries.length; start += insertBatch) {
    await trx
      .insertInto('entries')
      .values(entries.slice(start, start + insertBatch).map((entry) => toEntryRow(entry, now)))
      .execute();
  }
  await addToLedgerMonths(trx, entries);
  await keepOpenSums(trx, ownerId, entries.map(openPartOf));
}

/** One entry of the owner's client, with the id of the void that reverses it, if any. */
export async function findEntry(
  db: Executor,
  ownerId: string,
  clientId: string,
  entryId: number,
): Promise<(EntryRow & { voided_by: number | null }) | undefined> {
  return db
    .selectFrom('entries as e')
    .leftJoin('entries as v', 'v.void_of', 'e.id')
    .selectAll('e')
    .select('v.id as voided_by')
    .where('e.id', '=', entryId)
    .where('e.client_id', '=', clientId)
    .where('e.owner_id', '=', ownerId)
    .executeTakeFirst();
}

/** The openings of a client that no void has reversed yet, as entered. */
export async function liveOpenings(
  db: Executor,
  ownerId: string,
  clientId: string,
): Promise<EntryRow[]> {
  const rows = await db
    .selectFrom('entries as e')
    .leftJoin('entries as v', 'v.void_of', 'e.id')
    .selectAll('e')
    .where('e.client_id', '=', clientId)
    .where('e.owner_id', '=', ownerId)
    .where('e.kind', '=', 'opening')
    .where('v.id', 'is', null)
    .execute();
  // Sorted here: ordered by id in SQL, SQLite walked the owner's index (in id order) instead of
  // the client's.
  return rows.sort((a, b) => a.id - b.id);
}

/** What ageing needs of a client's entries. */
export async function ledgerLines(db: Executor, ownerId: string, clientId: string) {
  return db
    .selectFrom('entries')
    .select([
      'id',
      'amount',
      'currency',
      'occurred_on as date',
      'due_on as dueDate',
      'void_of as voidOf',
      'open_amount as openAmount',
    ])
    .where('client_id', '=', clientId)
    .where('owner_id', '=', ownerId)
    .execute();
}

/** What a walk of the ageing needs of an entry, and whether a void has reversed it. */
export interface WalkedLine extends LedgerLine {
  currency: Currency;
  openAmount: number;
  voidedBy: number | null;
}

/** Rows per page of a walk of the ageing: the first covers a new charge or a short ledger whole. */
export const ledgerPageSizes = [16, 256, 2048];

/**
 * A page of the amounts a client was charged or owes (no payments or credits), newest first (by
 * day, then as entered: the reverse of the order in which payments settle them), each older than
 * the given day and id. Along the client's index, so a page costs the rows it passes however long
 * the ledger is. Voids of payments come too (the caller leaves them out): a condition on `void_of`
 * here could lead SQLite to walk that index's NULLs, which are nearly every entry of every owner.
 */
export async function ledgerPage(
  db: Executor,
  ownerId: string,
  clientId: string,
  before: { day: string; id: number },
  size: number,
): Promise<WalkedLine[]> {
  return db
    .selectFrom('entries as e')
    .leftJoin('entries as v', 'v.void_of', 'e.id')
    .select([
      'e.id',
      'e.amount',
      'e.currency',
      'e.occurred_on as date',
      'e.due_on as dueDate',
      'e.void_of as voidOf',
      'e.open_amount as openAmount',
      'v.id as voidedBy',
    ])
    .where('e.client_id', '=', clientId)
    .where('e.owner_id', '=', ownerId)
    .where('e.amount', '>', 0)
    .where((eb) => eb(eb.refTuple('e.occurred_on', 'e.id'), '<', eb.tuple(before.day, before.id)))
    .orderBy('e.occurred_on', 'desc')
    .orderBy('e.id', 'desc')
    .limit(size)
    .execute();
}

/** Later than any entry's day and id: where a walk from the newest entry starts. */
export const newestEnd = { day: '9999-12-31', id: Number.MAX_SAFE_INTEGER };

/** Sets what of an entry is unpaid, and moves its due day's kept sum by the difference. */
export async function setOpenAmount(
  trx: Transaction<Database>,
  ownerId: string,
  entryId: number,
  openAmount: number,
) {
  // Under the owner's lock, so the amount read is the one the update replaces.
  await holdOwnerSums(trx, ownerId);
  const before = await trx
    .selectFrom('entries')
    .select(['currency', 'occurred_on', 'due_on', 'open_amount'])
    .where('id', '=', entryId)
    .where('owner_id', '=', ownerId)
    .executeTakeFirst();
  if (!before) return;
  await trx
    .updateTable('entries')
    .set({ open_amount: openAmount })
    .where('id', '=', entryId)
    .where('owner_id', '=', ownerId)
    .execute();
  await keepOpenSums(trx, ownerId, [
    {
      currency: before.currency,
      day: before.due_on ?? before.occurred_on,
      amount: openAmount - Number(before.open_amount),
    },
  ]);
}

/** The kinds of a client's entries and what each void reverses: enough to judge a change of currency. */
export async function ledgerShape(db: Executor, ownerId: string, clientId: string) {
  return db
    .selectFrom('entries')
    .select(['id', 'kind', 'void_of as voidOf'])
    .where('client_id', '=', clientId)
    .where('owner_id', '=', ownerId)
    .execute();
}

/** Where a page of a client's ledger starts: the day and id of the entry after its last. */
export interface LedgerCursor {
  date: string;
  id: number;
}

export class InvalidEntryCursorError extends Error {}

export function encodeEntryCursor(cursor: LedgerCursor): string {
  return Buffer.from(JSON.stringify([cursor.date, cursor.id])).toString('base64url');
}

export function decodeEntryCursor(text: string): LedgerCursor {
  let values: unknown;
  try {
    values = JSON.parse(Buffer.from(text, 'base64url').toString('utf8'));
  } catch {
    throw new InvalidEntryCursorError();
  }
  if (
    !Array.isArray(values) ||
    values.length !== 2 ||
    typeof values[0] !== 'string' ||
    !/^\d{4}-\d{2}-\d{2}$/.test(values[0]) ||
    typeof values[1] !== 'number' ||
    !Number.isSafeInteger(values[1])
  )
    throw new InvalidEntryCursorError();
  return { date: values[0], id: values[1] };
}

/**
 * A page of a client's ledger: the `limit` entries just before `before` (the newest without it),
 * listed oldest first (by day, then as entered: the order of the page, the statement and the
 * CSV). Each entry carries the balance after it in that order, summed over the whole ledger, not
 * only the page: a voided entry and its void move nothing (null on both). The sum is taken per
 * currency: entries from before a change of currency (an opening and its void) never mix with
 * the amounts after it. `earlier` is whether older entries remain.
 */
export async function listEntries(
  db: Executor,
  ownerId: string,
  clientId: string,
  page: { before?: LedgerCursor | undefined; limit: number; kind?: EntryKind | undefined },
): Promise<{ entries: Entry[]; earlier: boolean }> {
  let query = db
    .with('ledger', (qb) =>
      qb
        .selectFrom('entries as e')
        .leftJoin('entries as v', 'v.void_of', 'e.id')
        .leftJoin('users as u', 'u.id', 'e.created_by')
        // The bank import that recorded a payment: its line's key, then its batch's, one row each.
        .leftJoin('bank_lines as bl', (join) =>
          join.onRef('bl.owner_id', '=', 'e.owner_id').onRef('bl.line_id', '=', 'e.bank_line_id'),
        )
        .leftJoin('bank_batches as bb', 'bb.id', 'bl.batch_id')
        .selectAll('e')
        .select([
          'v.id as voided_by',
          'u.email as entered_by',
          'bb.account_label as bank_account',
          sql<string>`cast(sum(case when e.void_of is null and v.id is null then e.amount else 0 end) over (partition by e.currency order by e.occurred_on, e.id rows unbounded preceding) as text)`.as(
            'running_balance',
          ),
        ])
        .where('e.client_id', '=', clientId)
        .where('e.owner_id', '=', ownerId),
    )
    .selectFrom('ledger')
    .selectAll();
  const { before, kind } = page;
  if (before) query = query.where(sql<boolean>`(occurred_on, id) < (${before.date}, ${before.id})`);
  if (kind) query = query.where('kind', '=', kind);
  const rows = await query
    .orderBy('occurred_on', 'desc')
    .orderBy('id', 'desc')
    .limit(page.limit + 1)
    .execute();
  const earlier = rows.length > page.limit;
  const entries = rows
    .slice(0, page.limit)
    .reverse()
    .map((row) => ({
      id: row.id,
      kind: row.kind,
      amount: row.amount,
      currency: row.currency,
      date: row.occurred_on,
      dueDate: row.due_on,
      note: row.note,
      reference: row.reference,
      voidOf: row.void_of,
      voidedBy: row.voided_by,
      enteredBy: row.entered_by,
      enteredAt: new Date(row.created_at).toISOString(),
      runningBalance:
        row.void_of !== null || row.voided_by !== null
          ? null
          : BigInt(row.running_balance).toString(),
      bank: row.bank_line_id === null ? null : { account: row.bank_account },
    }));
  return { entries, earlier };
}

/**
 * Entries read at a time for an export: one chunk of its text (`itemsPerChunk` in
 * transfer/export-stream.ts). A larger page outlives several turns of the event loop while it
 * is turned into text, and V8 then grows its young generation: with 1,000 the JSON export of
 * 1,000,000 clients took 106-159 MB more memory, with 100 about 42 MB.
 */
const exportBatch = 100;

/** An owner's entries beside their clients' names, clients in name order, each in date order. */
function entriesOfClients(db: Executor, ownerId: string) {
  return (
    db
      .selectFrom('clients as c')
      // A cross join keeps the clients the outer loop on SQLite, which would otherwise start from
      // the owner's entries and sort them all; the owner on both sides lets each client's entries
      // come straight from entries_client, in date order.
      .crossJoin('entries as e')
      .whereRef('e.client_id', '=', 'c.id')
      .where('e.owner_id', '=', ownerId)
      .select([
        'e.id',
        'e.client_id as clientId',
        'c.name_key as nameKey',
        'c.first_name as firstName',
        'c.last_name as lastName',
        'c.email',
        'e.kind',
        'e.amount',
        'e.currency',
        'e.occurred_on as date',
        'e.due_on as dueDate',
        'e.note',
        'e.reference',
        'e.void_of as voidOf',
        'e.created_at as createdAt',
        'e.bank_line_id as bankLineId',
      ])
      .where('c.owner_id', '=', ownerId)
  );
}

type OwnerEntry = Awaited<ReturnType<ReturnType<typeof entriesOfClients>['execute']>>[number];

/** Where a page of an owner's entries ended: its last entry and that entry's client. */
export type OwnerEntriesEnd = Pick<OwnerEntry, 'nameKey' | 'clientId' | 'date' | 'id'>;

/**
 * The owner's entries after `end` (from the first without it), in the order of
 * `readOwnerEntries`: the rest of the client the last page ended in, then the clients after it,
 * both read along an index from where the last page ended. One condition over the clients' and
 * the entries' columns together could not be, and every page read and sorted all the owner's
 * entries again (100,000 entries took 41 s in pages of 100).
 */
export async function ownerEntriesAfter(
  db: Executor,
  ownerId: string,
  end: OwnerEntriesEnd | undefined,
  limit: number,
): Promise<OwnerEntry[]> {
  const rows: OwnerEntry[] = [];
  if (end) {
    rows.push(
      ...(await entriesOfClients(db, ownerId)
        .where('c.id', '=', end.clientId)
        .where(sql<boolean>`(e.occurred_on, e.id) > (${end.date}, ${end.id})`)
        .orderBy('e.occurred_on')
        .orderBy('e.id')
        .limit(limit)
        .execute()),
    );
  }
  if (rows.length === limit) return rows;
  let later = entriesOfClients(db, ownerId);
  if (end)
    later = later.where(sql<boolean>`(c.name_key, c.id) > (${end.nameKey}, ${end.clientId})`);
  rows.push(
    ...(await later
      .orderBy('c.name_key')
      .orderBy('c.id')
      .orderBy('e.occurred_on')
      .orderBy('e.id')
      .limit(limit - rows.length)
      .execute()),
  );
  return rows;
}

/**
 * Every entry of the owner's, with its client's name and e-mail, client by client (in name
 * order) in date order, read a page at a time along that order.
 */
export async function* readOwnerEntries(db: Executor, ownerId: string) {
  let end: OwnerEntry | undefined;
  for (;;) {
    const rows = await ownerEntriesAfter(db, ownerId, end, exportBatch);
    yield* rows;
    if (rows.length < exportBatch) return;
    end = rows[rows.length - 1];
  }
}

/**
 * A client's entries in `currency` dated up to `to`, in date order (then as entered): what a
 * statement ending on `to` is made of, the entries before its period included for the opening
 * balance and the ageing.
 */
export async function statementLines(
  db: Executor,
  ownerId: string,
  clientId: string,
  currency: Currency,
  to: string,
) {
  return db
    .selectFrom('entries')
    .select([
      'id',
      'kind',
      'amount',
      'occurred_on as date',
      'due_on as dueDate',
      'note',
      'reference',
      'void_of as voidOf',
    ])
    .where('client_id', '=', clientId)
    .where('owner_id', '=', ownerId)
    .where('currency', '=', currency)
    .where('occurred_on', '<=', to)
    .orderBy('occurred_on')
    .orderBy('id')
    .execute();
}

// The ledger's running figures kept on the client's row: its balance and oldest unpaid day.

const applyUpdate = (
  db: Executor,
  amount: number,
  now: number,
  id: string,
  ownerId: string,
  currency: Currency,
) =>
  db
    .updateTable('clients')
    .set((eb) => ({
      balance: eb('balance', '+', amount),
      version: eb('version', '+', 1),
      updated_at: now,
    }))
    .where('id', '=', id)
    .where('owner_id', '=', ownerId)
    .where('currency', '=', currency);

/**
 * Moves the balance by a new ledger entry's amount, in one statement (concurrent entries all
 * count), and counts a new version. Only while the client is still in the entry's currency, and
 * at `ifVersion` when given; undefined otherwise.
 */
export async function applyToBalance(
  trx: Transaction<Database>,
  ownerId: string,
  id: string,
  entry: { amount: number; currency: Currency },
  now: number,
  ifVersion?: number,
): Promise<Client | undefined> {
  await holdOwnerSums(trx, ownerId);
  const update = applyUpdate(trx, entry.amount, now, id, ownerId, entry.currency);
  const row = await (ifVersion === undefined ? update : update.where('version', '=', ifVersion))
    .returningAll()
    .executeTakeFirst();
  if (!row) return undefined;
  const after = { currency: row.currency, balance: row.balance, oldestDue: row.oldest_due_on };
  await keepClientSums(trx, ownerId, [{ ...after, balance: row.balance - entry.amount }], [after]);
  return toClient(row);
}

export async function setOldestDue(
  trx: Transaction<Database>,
  ownerId: string,
  id: string,
  day: string | null,
): Promise<void> {
  await holdOwnerSums(trx, ownerId);
  const before = await trx
    .selectFrom('clients')
    .select(['currency', 'balance', 'oldest_due_on'])
    .where('id', '=', id)
    .where('owner_id', '=', ownerId)
    .executeTakeFirst();
  if (!before) return;
  await trx
    .updateTable('clients')
    .set({ oldest_due_on: day })
    .where('id', '=', id)
    .where('owner_id', '=', ownerId)
    .execute();
  const client = { currency: before.currency, balance: before.balance };
  await keepClientSums(
    trx,
    ownerId,
    [{ ...client, oldestDue: before.oldest_due_on }],
    [{ ...client, oldestDue: day }],
  );
}

/**
 * Every entry of the owner's still partly unpaid, as the ledger's allocation keeps it
 * (`open_amount`): what reminders are about. A voided or fully paid charge is not among them.
 */
export async function openCharges(db: Executor, ownerId: string, clientId?: string) {
  let query = db
    .selectFrom('entries')
    .select([
      'id',
      'client_id as clientId',
      'amount',
      'open_amount as remaining',
      'currency',
      'occurred_on as date',
      'due_on as dueDate',
      'note',
      'reference',
    ])
    .where('owner_id', '=', ownerId)
    .where('open_amount', '>', 0);
  if (clientId !== undefined) query = query.where('client_id', '=', clientId);
  const rows = await query.orderBy('id').execute();
  return rows.map((row) => ({ ...row, remaining: Number(row.remaining) }));
}
