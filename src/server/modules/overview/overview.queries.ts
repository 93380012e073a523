// What the overview's routes read: figures across all of an owner's clients. The sums per
// currency and per due day are those the ledger's write path keeps (ledger/ledger.queries.ts).
import type { Currency } from '../../../shared/money.ts';
import type { Executor } from '../../db/database.ts';

export interface Debtor {
  id: string;
  firstName: string;
  lastName: string;
  balance: number;
  currency: Currency;
}

/** The `limit` largest balances above 0 in one currency, read backwards along its index. */
export async function largestDebtors(
  db: Executor,
  bookId: string,
  currency: Currency,
  limit: number,
): Promise<Debtor[]> {
  return db
    .selectFrom('clients')
    .select(['id', 'first_name as firstName', 'last_name as lastName', 'balance', 'currency'])
    .where('book_id', '=', bookId)
    .where('currency', '=', currency)
    .where('balance', '>', 0)
    .orderBy('balance', 'desc')
    .orderBy('id', 'desc')
    .limit(limit)
    .execute();
}
