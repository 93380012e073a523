import type { Entry } from '../../../../shared/schemas/ledger.ts';

/** A line of the ledger as the page shows it. */
export interface LedgerRow {
  entry: Entry;
  /** A voided entry or the void that reverses it: shown together, greyed out. */
  voidedPair: boolean;
  /** The balance after this entry in its currency; null on a voided pair, which moves nothing. */
  runningBalance: bigint | null;
}

const byDate = (a: Entry, b: Entry) => (a.date < b.date ? -1 : a.date > b.date ? 1 : a.id - b.id);

/**
 * A client's entries oldest first, the order of the statement and the entries CSV, each with
 * the balance after it summed in that order. A voided entry and its void add up to nothing, so
 * both are left out of the sum and the void is placed right under the entry it reverses. The sum
 * is kept per currency: an opening voided by a change of currency never mixes with what follows.
 */
export function ledgerRows(entries: readonly Entry[]): LedgerRow[] {
  const sorted = [...entries].sort(byDate);
  const present = new Set(sorted.map((entry) => entry.id));
  const voids = new Map<number, Entry>();
  for (const entry of sorted) {
    if (entry.voidOf !== null && present.has(entry.voidOf)) voids.set(entry.voidOf, entry);
  }
  const balances = new Map<string, bigint>();
  const rows: LedgerRow[] = [];
  for (const entry of sorted) {
    if (entry.voidOf !== null && present.has(entry.voidOf)) continue;
    const reversal = voids.get(entry.id);
    if (reversal) {
      rows.push({ entry, voidedPair: true, runningBalance: null });
      rows.push({ entry: reversal, voidedPair: true, runningBalance: null });
      continue;
    }
    const balance = (balances.get(entry.currency) ?? 0n) + BigInt(entry.amount);
    balances.set(entry.currency, balance);
    rows.push({ entry, voidedPair: false, runningBalance: balance });
  }
  return rows;
}
