import type { Transaction } from 'kysely';
import type { Currency } from '../../../shared/money.ts';
import type { Database } from '../../db/database.ts';
import { addRowsOf, holdOwnerSums, keepOpenSums } from './kept-sums.repository.ts';
import { half } from './ledger.queries.ts';

/** What of an entry the month figures need. */
export interface MonthAmount {
  bookId: string;
  currency: Currency;
  /** YYYY-MM-DD */
  date: string;
  amount: number;
}

/**
 * Adds entries to their months' net changes, in the caller's transaction: every insert of
 * entries does, so the figures move with the ledger (`sign` -1 takes them out again, as a
 * client's deletion takes its entries). Amounts are split as the migration split them.
 */
export async function addToLedgerMonths(
  trx: Transaction<Database>,
  entries: readonly MonthAmount[],
  sign: 1 | -1 = 1,
): Promise<void> {
  // The owner's lock first, as for every kept row (kept-sums.repository.ts).
  for (const bookId of new Set(entries.map((entry) => entry.bookId)))
    await holdOwnerSums(trx, bookId);
  const sums = new Map<
    string,
    { bookId: string; currency: Currency; month: string; high: number; low: number }
  >();
  for (const entry of entries) {
    const month = entry.date.slice(0, 7);
    const key = `${entry.bookId} ${entry.currency} ${month}`;
    const sum = sums.get(key) ?? {
      bookId: entry.bookId,
      currency: entry.currency,
      month,
      high: 0,
      low: 0,
    };
    const high = Math.floor(entry.amount / half);
    sum.high += sign * high;
    sum.low += sign * (entry.amount - high * half);
    sums.set(key, sum);
  }
  for (const sum of sums.values()) {
    await trx
      .insertInto('ledger_months')
      .values({
        book_id: sum.bookId,
        currency: sum.currency,
        month: sum.month,
        high: sum.high,
        low: sum.low,
      })
      .onConflict((conflict) =>
        conflict.columns(['book_id', 'currency', 'month']).doUpdateSet((eb) => ({
          high: eb(eb.ref('ledger_months.high'), '+', eb.ref('excluded.high')),
          low: eb(eb.ref('ledger_months.low'), '+', eb.ref('excluded.low')),
        })),
      )
      .execute();
  }
}

/**
 * Takes a client's entries out of the month figures and their unpaid amounts out of the kept
 * sums (kept-sums.repository.ts), before the client and its ledger go.
 */
export async function removeClientFromLedgerFigures(
  trx: Transaction<Database>,
  bookId: string,
  clientId: string,
): Promise<void> {
  await holdOwnerSums(trx, bookId);
  const entries = await trx
    .selectFrom('entries')
    .select(['currency', 'occurred_on as date', 'due_on', 'amount', 'open_amount'])
    .where('client_id', '=', clientId)
    .where('book_id', '=', bookId)
    .execute();
  await addToLedgerMonths(
    trx,
    entries.map((entry) => ({ bookId, ...entry, amount: Number(entry.amount) })),
    -1,
  );
  await keepOpenSums(
    trx,
    bookId,
    entries.map((entry) => ({
      currency: entry.currency,
      day: entry.due_on ?? entry.date,
      amount: -Number(entry.open_amount),
    })),
  );
}

/** The month figures written under a staging account, made `to`'s (decision 042). */
export async function moveLedgerMonths(
  trx: Transaction<Database>,
  from: string,
  to: string,
): Promise<void> {
  await holdOwnerSums(trx, to);
  await addRowsOf(trx, 'ledger_months', ['currency', 'month'], ['high', 'low'], from, to);
}
