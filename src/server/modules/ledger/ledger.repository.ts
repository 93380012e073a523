import type { Transaction } from 'kysely';
import type { Currency } from '../../../shared/money.ts';
import type { Client } from '../../../shared/schemas/clients.ts';
import type { EntryKind, PaymentMethod } from '../../../shared/schemas/ledger.ts';
import type { Database, Executor } from '../../db/database.ts';
import { toClient } from '../clients/clients.queries.ts';
import { addToLedgerMonths } from './ledger-months.repository.ts';
import {
  holdOwnerSums,
  keepClientSums,
  keepOpenSums,
  type OpenPart,
} from './kept-sums.repository.ts';
import type { EntryRow } from './ledger.queries.ts';

/** Rows per INSERT: well inside both databases' limits on bound parameters. */
const insertBatch = 500;

export interface NewEntry {
  bookId: string;
  clientId: string;
  kind: EntryKind;
  amount: number;
  currency: Currency;
  date: string;
  dueDate: string | null;
  note: string;
  reference?: string;
  voidOf: number | null;
  /** A person (entries.created_by references users); null: nobody yet, a staged import's. */
  createdBy: string | null;
  /** What of it is unpaid from the start: only a new client's opening balance knows at once. */
  openAmount?: number;
  /** A payment from a bank statement: its line (an export's, restored). */
  bankLineId?: string | null;
  /** A payment's method; null (or left out) on other entries. */
  method?: PaymentMethod | null;
  /** The entry of the same client it corrects (issue 59). */
  corrects?: number | null;
}

/** An entry's row as every insert writes it. */
export const toEntryRow = (entry: NewEntry, now: number) => ({
  book_id: entry.bookId,
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
  payment_method: entry.method ?? null,
  corrects: entry.corrects ?? null,
});

/**
 * Sets an entry's day, due day and reference: only an opening balance's are ever changed. What of
 * it is unpaid moves to its new due day in the kept sums.
 */
export async function setEntryTerms(
  trx: Transaction<Database>,
  bookId: string,
  entryId: number,
  terms: { date: string; dueDate: string | null; reference: string },
): Promise<EntryRow> {
  await holdOwnerSums(trx, bookId);
  const before = await trx
    .selectFrom('entries')
    .select(['currency', 'occurred_on', 'due_on', 'open_amount'])
    .where('id', '=', entryId)
    .where('book_id', '=', bookId)
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
  await keepOpenSums(trx, bookId, [
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
  await holdOwnerSums(trx, entry.bookId);
  const inserted = await trx
    .insertInto('entries')
    .values(toEntryRow(entry, now))
    .returningAll()
    .executeTakeFirst();
  if (!inserted) throw new Error('the new entry came back empty');
  await addToLedgerMonths(trx, [entry]);
  await keepOpenSums(trx, entry.bookId, [openPartOf(entry)]);
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

/**
 * A restore's corrections linked to the entries they put right, once both are in: a file lists
 * each client's entries by date, so a correction may come before the entry it names.
 */
export async function linkRestoredCorrections(
  trx: Transaction<Database>,
  bookId: string,
  links: readonly { id: number; corrects: number }[],
): Promise<void> {
  for (const link of links) {
    await trx
      .updateTable('entries')
      .set({ corrects: link.corrects })
      .where('id', '=', link.id)
      .where('book_id', '=', bookId)
      .execute();
  }
}

/** Adds many entries (an import's opening balances) in the caller's transaction. */
export async function insertEntries(
  trx: Transaction<Database>,
  entries: readonly NewEntry[],
  now: number,
): Promise<void> {
  const bookId = entries[0]?.bookId;
  if (bookId === undefined) return;
  await holdOwnerSums(trx, bookId);
  for (let start = 0; start < entries.length; start += insertBatch) {
    await trx
      .insertInto('entries')
      .values(entries.slice(start, start + insertBatch).map((entry) => toEntryRow(entry, now)))
      .execute();
  }
  await addToLedgerMonths(trx, entries);
  await keepOpenSums(trx, bookId, entries.map(openPartOf));
}

/** The charges a new payment or credit names, each with the most of it that goes there. */
export async function insertPaymentTargets(
  trx: Transaction<Database>,
  bookId: string,
  clientId: string,
  paymentId: number,
  targets: readonly { chargeId: number; amount: number }[],
): Promise<void> {
  if (targets.length === 0) return;
  await trx
    .insertInto('payment_targets')
    .values(
      targets.map((target) => ({
        book_id: bookId,
        client_id: clientId,
        payment_id: paymentId,
        charge_id: target.chargeId,
        amount: target.amount,
      })),
    )
    .execute();
}

/** Sets what of an entry is unpaid, and moves its due day's kept sum by the difference. */
export async function setOpenAmount(
  trx: Transaction<Database>,
  bookId: string,
  entryId: number,
  openAmount: number,
) {
  // Under the owner's lock, so the amount read is the one the update replaces.
  await holdOwnerSums(trx, bookId);
  const before = await trx
    .selectFrom('entries')
    .select(['currency', 'occurred_on', 'due_on', 'open_amount'])
    .where('id', '=', entryId)
    .where('book_id', '=', bookId)
    .executeTakeFirst();
  if (!before) return;
  await trx
    .updateTable('entries')
    .set({ open_amount: openAmount })
    .where('id', '=', entryId)
    .where('book_id', '=', bookId)
    .execute();
  await keepOpenSums(trx, bookId, [
    {
      currency: before.currency,
      day: before.due_on ?? before.occurred_on,
      amount: openAmount - Number(before.open_amount),
    },
  ]);
}

// The ledger's running figures kept on the client's row: its balance and oldest unpaid day.

const applyUpdate = (
  db: Executor,
  amount: number,
  now: number,
  id: string,
  bookId: string,
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
    .where('book_id', '=', bookId)
    .where('currency', '=', currency);

/**
 * Moves the balance by a new ledger entry's amount, in one statement (concurrent entries all
 * count), and counts a new version. Only while the client is still in the entry's currency, and
 * at `ifVersion` when given; undefined otherwise.
 */
export async function applyToBalance(
  trx: Transaction<Database>,
  bookId: string,
  id: string,
  entry: { amount: number; currency: Currency },
  now: number,
  ifVersion?: number,
): Promise<Client | undefined> {
  await holdOwnerSums(trx, bookId);
  const update = applyUpdate(trx, entry.amount, now, id, bookId, entry.currency);
  const row = await (ifVersion === undefined ? update : update.where('version', '=', ifVersion))
    .returningAll()
    .executeTakeFirst();
  if (!row) return undefined;
  const after = { currency: row.currency, balance: row.balance, oldestDue: row.oldest_due_on };
  await keepClientSums(trx, bookId, [{ ...after, balance: row.balance - entry.amount }], [after]);
  return toClient(row);
}

export async function setOldestDue(
  trx: Transaction<Database>,
  bookId: string,
  id: string,
  day: string | null,
): Promise<void> {
  await holdOwnerSums(trx, bookId);
  const before = await trx
    .selectFrom('clients')
    .select(['currency', 'balance', 'oldest_due_on'])
    .where('id', '=', id)
    .where('book_id', '=', bookId)
    .executeTakeFirst();
  if (!before) return;
  await trx
    .updateTable('clients')
    .set({ oldest_due_on: day })
    .where('id', '=', id)
    .where('book_id', '=', bookId)
    .execute();
  const client = { currency: before.currency, balance: before.balance };
  await keepClientSums(
    trx,
    bookId,
    [{ ...client, oldestDue: before.oldest_due_on }],
    [{ ...client, oldestDue: day }],
  );
}

/** The entries written under a staging account, made `to`'s, who is then their author too. */
export async function moveEntries(
  trx: Transaction<Database>,
  from: string,
  to: string,
  createdBy: string | null,
): Promise<void> {
  await trx
    .updateTable('entries')
    .set({ book_id: to, created_by: createdBy })
    .where('book_id', '=', from)
    .execute();
}
