// What other modules and this module's routes and commands read of ledgers, and the sums the
// write path keeps of them. Changes go through ledger.commands.ts; their SQL is in the
// repositories (ledger.repository.ts, kept-sums.repository.ts, ledger-months.repository.ts).
import { sql, type Selectable } from 'kysely';
import { type Currency, currencies } from '../../../shared/money.ts';
import type { EntryDetail } from '../../../shared/schemas/events.ts';
import type { Entry, EntryKind } from '../../../shared/schemas/ledger.ts';
import type { Executor } from '../../db/database.ts';
import { type LedgerLine, type PaymentTarget, bucketBounds, type AgeingBucket } from './ageing.ts';
import type { EntriesTable } from './ledger.table.ts';
import type { CurrencyTotal } from '../../../shared/schemas/clients.ts';

/** Kept sums are two halves, of the high and the low 32 bits of each amount: neither overflows. */
export const half = 2 ** 32;

export type EntryRow = Selectable<EntriesTable>;

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
    method: row.payment_method,
  };
}

/** The newest correction of an entry that still stands (not voided), if any (issue 59). */
export async function findStandingCorrection(
  db: Executor,
  bookId: string,
  entryId: number,
): Promise<number | undefined> {
  const row = await db
    .selectFrom('entries as k')
    .leftJoin('entries as kv', 'kv.void_of', 'k.id')
    .select('k.id')
    .where('k.corrects', '=', entryId)
    .where('k.book_id', '=', bookId)
    .where('kv.id', 'is', null)
    .orderBy('k.id', 'desc')
    .executeTakeFirst();
  return row?.id;
}

/** One entry of the owner's client, with the id of the void that reverses it, if any. */
export async function findEntry(
  db: Executor,
  bookId: string,
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
    .where('e.book_id', '=', bookId)
    .executeTakeFirst();
}

/** The openings of a client that no void has reversed yet, as entered. */
export async function liveOpenings(
  db: Executor,
  bookId: string,
  clientId: string,
): Promise<EntryRow[]> {
  const rows = await db
    .selectFrom('entries as e')
    .leftJoin('entries as v', 'v.void_of', 'e.id')
    .selectAll('e')
    .where('e.client_id', '=', clientId)
    .where('e.book_id', '=', bookId)
    .where('e.kind', '=', 'opening')
    .where('v.id', 'is', null)
    .execute();
  // Sorted here: ordered by id in SQL, SQLite walked the owner's index (in id order) instead of
  // the client's.
  return rows.sort((a, b) => a.id - b.id);
}

/** What ageing needs of a client's entries. */
export async function ledgerLines(db: Executor, bookId: string, clientId: string) {
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
    .where('book_id', '=', bookId)
    .execute();
}

/** The charges the client's payments and credits name (migration 0043), as entered. */
export async function paymentTargets(
  db: Executor,
  bookId: string,
  clientId: string,
): Promise<PaymentTarget[]> {
  const rows = await db
    .selectFrom('payment_targets')
    .select(['payment_id as paymentId', 'charge_id as chargeId', 'amount'])
    .where('client_id', '=', clientId)
    .where('book_id', '=', bookId)
    .orderBy('payment_id')
    .orderBy('charge_id')
    .execute();
  return rows.map((row) => ({ ...row, amount: Number(row.amount) }));
}

/** Every charge the owner's payments and credits name, by entry ids, a page at a time (export). */
export async function* readPaymentTargets(db: Executor, bookId: string) {
  let after = { paymentId: 0, chargeId: 0 };
  for (;;) {
    const rows = await db
      .selectFrom('payment_targets')
      .select(['payment_id as paymentId', 'charge_id as chargeId', 'amount'])
      .where('book_id', '=', bookId)
      .where((eb) =>
        eb(eb.refTuple('payment_id', 'charge_id'), '>', eb.tuple(after.paymentId, after.chargeId)),
      )
      .orderBy('payment_id')
      .orderBy('charge_id')
      .limit(exportBatch)
      .execute();
    for (const row of rows) yield { ...row, amount: Number(row.amount) };
    if (rows.length < exportBatch) return;
    after = rows[rows.length - 1] as (typeof rows)[number];
  }
}

/** Whether any payment or credit of the client names the charges it pays. */
export async function hasPaymentTargets(db: Executor, bookId: string, clientId: string) {
  const row = await db
    .selectFrom('payment_targets')
    .select('payment_id')
    .where('client_id', '=', clientId)
    .where('book_id', '=', bookId)
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
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
  bookId: string,
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
    .where('e.book_id', '=', bookId)
    .where('e.amount', '>', 0)
    .where((eb) => eb(eb.refTuple('e.occurred_on', 'e.id'), '<', eb.tuple(before.day, before.id)))
    .orderBy('e.occurred_on', 'desc')
    .orderBy('e.id', 'desc')
    .limit(size)
    .execute();
}

/** Later than any entry's day and id: where a walk from the newest entry starts. */
export const newestEnd = { day: '9999-12-31', id: Number.MAX_SAFE_INTEGER };

/** The kinds of a client's entries and what each void reverses: enough to judge a change of currency. */
export async function ledgerShape(db: Executor, bookId: string, clientId: string) {
  return db
    .selectFrom('entries')
    .select(['id', 'kind', 'void_of as voidOf'])
    .where('client_id', '=', clientId)
    .where('book_id', '=', bookId)
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
  bookId: string,
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
          join.onRef('bl.book_id', '=', 'e.book_id').onRef('bl.line_id', '=', 'e.bank_line_id'),
        )
        .leftJoin('bank_batches as bb', 'bb.id', 'bl.batch_id')
        .selectAll('e')
        .select([
          'v.id as voided_by',
          'u.email as entered_by',
          'bb.account_label as bank_account',
          (eb) =>
            eb
              .selectFrom('entries as k')
              .select((inner) => inner.fn.max('k.id').as('id'))
              .whereRef('k.corrects', '=', 'e.id')
              // A correction voided since puts nothing right.
              .where((inner) =>
                inner.not(
                  inner.exists(
                    inner
                      .selectFrom('entries as kv')
                      .select('kv.id')
                      .whereRef('kv.void_of', '=', 'k.id'),
                  ),
                ),
              )
              .as('corrected_by'),
          sql<string>`cast(sum(case when e.void_of is null and v.id is null then e.amount else 0 end) over (partition by e.currency order by e.occurred_on, e.id rows unbounded preceding) as text)`.as(
            'running_balance',
          ),
        ])
        .where('e.client_id', '=', clientId)
        .where('e.book_id', '=', bookId),
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
      method: row.payment_method,
      open: row.amount > 0 ? Number(row.open_amount) : 0,
      corrects: row.corrects,
      correctedBy: row.corrected_by === null ? null : Number(row.corrected_by),
    }));
  return { entries: await withTargets(db, bookId, entries), earlier };
}

/**
 * A page of entries with the charges its payments name and the payments that name its charges
 * (migration 0043), read in two statements. A voided payment names nothing: its targets count
 * for nothing (ageing.ts `allocate`).
 */
async function withTargets(
  db: Executor,
  bookId: string,
  entries: readonly Omit<Entry, 'pays' | 'paidBy'>[],
): Promise<Entry[]> {
  const live = (entry: Omit<Entry, 'pays' | 'paidBy'>) =>
    entry.voidOf === null && entry.voidedBy === null;
  const payers = entries.filter((entry) => entry.amount < 0 && live(entry)).map((e) => e.id);
  const owed = entries.filter((entry) => entry.amount > 0 && live(entry)).map((e) => e.id);
  const pays = new Map<number, Entry['pays']>();
  const paidBy = new Map<number, Entry['paidBy']>();
  if (payers.length > 0) {
    const rows = await db
      .selectFrom('payment_targets as t')
      .innerJoin('entries as c', 'c.id', 't.charge_id')
      // A voided charge is paid by nobody: the payment's money went oldest first.
      .leftJoin('entries as v', 'v.void_of', 'c.id')
      .select([
        't.payment_id as paymentId',
        'c.id',
        'c.occurred_on as date',
        'c.amount',
        'c.reference',
        'c.note',
      ])
      .where('t.book_id', '=', bookId)
      .where('t.payment_id', 'in', payers)
      .where('v.id', 'is', null)
      .orderBy('t.payment_id')
      .orderBy('c.occurred_on')
      .orderBy('c.id')
      .execute();
    for (const row of rows)
      pays.set(row.paymentId, [
        ...(pays.get(row.paymentId) ?? []),
        {
          id: row.id,
          date: row.date,
          amount: row.amount,
          label: [row.reference, row.note].filter((text) => text !== '').join(' / '),
        },
      ]);
  }
  if (owed.length > 0) {
    const rows = await db
      .selectFrom('payment_targets as t')
      .innerJoin('entries as p', 'p.id', 't.payment_id')
      .leftJoin('entries as v', 'v.void_of', 'p.id')
      .select(['t.charge_id as chargeId', 'p.id', 'p.occurred_on as date', 'p.amount'])
      .where('t.book_id', '=', bookId)
      .where('t.charge_id', 'in', owed)
      .where('v.id', 'is', null)
      .orderBy('p.occurred_on')
      .orderBy('p.id')
      .execute();
    for (const row of rows)
      paidBy.set(row.chargeId, [
        ...(paidBy.get(row.chargeId) ?? []),
        { id: row.id, date: row.date, amount: row.amount },
      ]);
  }
  return entries.map((entry) => ({
    ...entry,
    pays: pays.get(entry.id) ?? [],
    paidBy: paidBy.get(entry.id) ?? [],
  }));
}

/**
 * Entries read at a time for an export: one chunk of its text (`itemsPerChunk` in
 * transfer/export-stream.ts). A larger page outlives several turns of the event loop while it
 * is turned into text, and V8 then grows its young generation: with 1,000 the JSON export of
 * 1,000,000 clients took 106-159 MB more memory, with 100 about 42 MB.
 */
const exportBatch = 100;

/** An owner's entries beside their clients' names, clients in name order, each in date order. */
function entriesOfClients(db: Executor, bookId: string) {
  return (
    db
      .selectFrom('clients as c')
      // A cross join keeps the clients the outer loop on SQLite, which would otherwise start from
      // the owner's entries and sort them all; the owner on both sides lets each client's entries
      // come straight from entries_client, in date order.
      .crossJoin('entries as e')
      .whereRef('e.client_id', '=', 'c.id')
      .where('e.book_id', '=', bookId)
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
        'e.payment_method as method',
        'e.corrects',
      ])
      .where('c.book_id', '=', bookId)
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
  bookId: string,
  end: OwnerEntriesEnd | undefined,
  limit: number,
): Promise<OwnerEntry[]> {
  const rows: OwnerEntry[] = [];
  if (end) {
    rows.push(
      ...(await entriesOfClients(db, bookId)
        .where('c.id', '=', end.clientId)
        .where(sql<boolean>`(e.occurred_on, e.id) > (${end.date}, ${end.id})`)
        .orderBy('e.occurred_on')
        .orderBy('e.id')
        .limit(limit)
        .execute()),
    );
  }
  if (rows.length === limit) return rows;
  let later = entriesOfClients(db, bookId);
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
export async function* readOwnerEntries(db: Executor, bookId: string) {
  let end: OwnerEntry | undefined;
  for (;;) {
    const rows = await ownerEntriesAfter(db, bookId, end, exportBatch);
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
  bookId: string,
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
      'payment_method as method',
    ])
    .where('client_id', '=', clientId)
    .where('book_id', '=', bookId)
    .where('currency', '=', currency)
    .where('occurred_on', '<=', to)
    .orderBy('occurred_on')
    .orderBy('id')
    .execute();
}

/**
 * Every entry of the owner's still partly unpaid, as the ledger's allocation keeps it
 * (`open_amount`): what reminders are about. A voided or fully paid charge is not among them.
 */
export async function openCharges(db: Executor, bookId: string, clientId?: string) {
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
    .where('book_id', '=', bookId)
    .where('open_amount', '>', 0);
  if (clientId !== undefined) query = query.where('client_id', '=', clientId);
  const rows = await query.orderBy('id').execute();
  return rows.map((row) => ({ ...row, remaining: Number(row.remaining) }));
}

// The sums the write path keeps (kept-sums.repository.ts, migration 0038, decision 035).

const joinHalves = (high: string | number | bigint, low: string | number | bigint) =>
  BigInt(high) * BigInt(half) + BigInt(low);

const asText = (column: string) => sql<string>`cast(${sql.ref(column)} as text)`;

const sumAsText = (column: string) => sql<string>`cast(sum(${sql.ref(column)}) as text)`;

/** What the kept sums hold of one currency's clients. */
interface CurrencySums {
  currency: Currency;
  clients: number;
  owing: number;
  /** Sum of the balances above 0. */
  owed: bigint;
  inCredit: number;
  /** Sum of the balances below 0, as a positive amount. */
  credit: bigint;
}

/** The owner's clients per currency, from the kept rows: a handful, however many clients. */
async function clientSumsByCurrency(db: Executor, bookId: string): Promise<CurrencySums[]> {
  const rows = await db
    .selectFrom('client_sums')
    .select([
      'currency',
      asText('clients').as('clients'),
      asText('owing').as('owing'),
      asText('owed_high').as('owed_high'),
      asText('owed_low').as('owed_low'),
      asText('in_credit').as('in_credit'),
      asText('credit_high').as('credit_high'),
      asText('credit_low').as('credit_low'),
    ])
    .where('book_id', '=', bookId)
    .execute();
  return rows
    .map((row) => ({
      currency: row.currency,
      clients: Number(row.clients),
      owing: Number(row.owing),
      owed: joinHalves(row.owed_high, row.owed_low),
      inCredit: Number(row.in_credit),
      credit: joinHalves(row.credit_high, row.credit_low),
    }))
    .filter((sums) => sums.clients > 0);
}

export interface CurrencyPosition {
  currency: Currency;
  /** Sum of the balances above 0. */
  owed: bigint;
  /** Sum of the balances below 0, as a positive amount. */
  credits: bigint;
  clientsOwing: number;
  clientsInCredit: number;
}

/** What the owner's clients owe and are owed, per currency. */
export async function positionsByCurrency(
  db: Executor,
  bookId: string,
): Promise<CurrencyPosition[]> {
  return (await clientSumsByCurrency(db, bookId)).map((sums) => ({
    currency: sums.currency,
    owed: sums.owed,
    credits: sums.credit,
    clientsOwing: sums.owing,
    clientsInCredit: sums.inCredit,
  }));
}

/** How many clients per currency have an amount unpaid that fell due before `today`. */
export async function overdueClientsByCurrency(
  db: Executor,
  bookId: string,
  today: string,
): Promise<Map<Currency, number>> {
  const rows = await overdueSumsByCurrency(db, bookId, today);
  return new Map(rows.map((row) => [row.currency, row.clients]));
}

/**
 * Per currency, the clients with an amount unpaid that fell due before `day` and the sum of their
 * balances: a range of the kept days.
 */
async function overdueSumsByCurrency(
  db: Executor,
  bookId: string,
  day: string,
): Promise<{ currency: Currency; clients: number; balance: bigint }[]> {
  const rows = await db
    .selectFrom('due_sums')
    .select([
      'currency',
      sumAsText('clients').as('clients'),
      sumAsText('balance_high').as('high'),
      sumAsText('balance_low').as('low'),
    ])
    .where('book_id', '=', bookId)
    .where('day', '<', day)
    .groupBy('currency')
    .execute();
  return rows
    .map((row) => ({
      currency: row.currency,
      clients: Number(row.clients),
      balance: joinHalves(row.high, row.low),
    }))
    .filter((row) => row.clients > 0);
}

/**
 * The owner's unpaid amounts per currency and ageing bucket on `today` (each above 0): a sum over
 * the kept days, a few hundred rows however many entries.
 */
export async function ageingByCurrency(
  db: Executor,
  bookId: string,
  today: string,
): Promise<{ currency: Currency; bucket: AgeingBucket; total: bigint }[]> {
  const bounds = bucketBounds(today);
  const bucket = sql<AgeingBucket>`case
    when day >= ${today} then 'current'
    when day >= ${bounds.days1to30} then 'days1to30'
    when day >= ${bounds.days31to60} then 'days31to60'
    when day >= ${bounds.days61to90} then 'days61to90'
    else 'over90' end`;
  const rows = await db
    .selectFrom('due_sums')
    .select([
      'currency',
      bucket.as('bucket'),
      sumAsText('open_high').as('high'),
      sumAsText('open_low').as('low'),
    ])
    .where('book_id', '=', bookId)
    .groupBy(['currency', sql`2`])
    .execute();
  return rows
    .map((row) => ({
      currency: row.currency,
      bucket: row.bucket,
      total: joinHalves(row.high, row.low),
    }))
    .filter((row) => row.total !== 0n);
}

/**
 * The list's count and totals per currency for a filter without a search, from the kept rows;
 * undefined for what they do not hold (owing and overdue at once), which the caller works out
 * over the clients.
 */
export async function keptListSummary(
  db: Executor,
  filter: {
    bookId: string;
    currency?: Currency | undefined;
    owes?: boolean;
    overdueOn?: string | undefined;
  },
): Promise<{ count: number; totals: CurrencyTotal[] } | undefined> {
  if (filter.owes && filter.overdueOn) return undefined;
  let matches: { currency: Currency; count: number; total: bigint }[];
  if (filter.overdueOn) {
    matches = (await overdueSumsByCurrency(db, filter.bookId, filter.overdueOn)).map((row) => ({
      currency: row.currency,
      count: row.clients,
      total: row.balance,
    }));
  } else {
    const sums = await clientSumsByCurrency(db, filter.bookId);
    matches = sums.map((row) =>
      filter.owes
        ? { currency: row.currency, count: row.owing, total: row.owed }
        : { currency: row.currency, count: row.clients, total: row.owed - row.credit },
    );
  }
  const shown = matches.filter(
    (row) => row.count > 0 && (!filter.currency || row.currency === filter.currency),
  );
  return {
    count: shown.reduce((sum, row) => sum + row.count, 0),
    totals: currencies.flatMap((currency) => {
      const row = shown.find((candidate) => candidate.currency === currency);
      return row ? [{ currency, total: row.total.toString() }] : [];
    }),
  };
}

/**
 * The net change of the owner's balances per currency and month (YYYY-MM), from `firstMonth` on:
 * a dozen rows per currency, however long the ledger.
 */
export async function ledgerByMonthSince(
  db: Executor,
  bookId: string,
  firstMonth: string,
): Promise<{ currency: Currency; month: string; total: bigint }[]> {
  const rows = await db
    .selectFrom('ledger_months')
    .select([
      'currency',
      'month',
      sql<string>`cast(high as text)`.as('high'),
      sql<string>`cast(low as text)`.as('low'),
    ])
    .where('book_id', '=', bookId)
    .where('month', '>=', firstMonth)
    .execute();
  return rows.map((row) => ({
    currency: row.currency,
    month: row.month,
    total: BigInt(row.high) * BigInt(half) + BigInt(row.low),
  }));
}

/** The earliest day of a staged import's entries: what its publishing asks the lock date about. */
export async function stagedDates(db: Executor, stagingId: string): Promise<string[]> {
  const row = await db
    .selectFrom('entries')
    .select((eb) => eb.fn.min('occurred_on').as('first'))
    .where('book_id', '=', stagingId)
    .executeTakeFirst();
  return row?.first ? [row.first] : [];
}

/** The day of a client's earliest entry: deleting the client takes every entry from then on. */
export async function firstEntryDates(
  db: Executor,
  bookId: string,
  clientId: string,
): Promise<string[]> {
  const row = await db
    .selectFrom('entries')
    .select((eb) => eb.fn.min('occurred_on').as('first'))
    .where('book_id', '=', bookId)
    .where('client_id', '=', clientId)
    .executeTakeFirst();
  return row?.first ? [row.first] : [];
}
