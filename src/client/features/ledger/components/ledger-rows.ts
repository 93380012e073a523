import type { Entry } from '../../../../shared/schemas/ledger.ts';

/** A line of the ledger as the page shows it. */
export interface LedgerRow {
  entry: Entry;
  /** A voided entry or the void that reverses it: shown together, greyed out. */
  voidedPair: boolean;
  /** The balance after this entry in its currency; null on a voided pair, which moves nothing. */
  runningBalance: bigint | null;
}

/**
 * A client's entries as the server lists them (oldest first, by date and then as entered: the
 * order of the statement and the entries CSV), each with the running balance the server summed
 * over the whole ledger. A voided entry and its void move nothing; the void is placed right
 * under the entry it reverses when both are loaded.
 */
export function ledgerRows(entries: readonly Entry[]): LedgerRow[] {
  const present = new Set(entries.map((entry) => entry.id));
  const voids = new Map<number, Entry>();
  for (const entry of entries) {
    if (entry.voidOf !== null && present.has(entry.voidOf)) voids.set(entry.voidOf, entry);
  }
  const row = (entry: Entry): LedgerRow => ({
    entry,
    voidedPair: entry.voidOf !== null || entry.voidedBy !== null,
    runningBalance: entry.runningBalance === null ? null : BigInt(entry.runningBalance),
  });
  const rows: LedgerRow[] = [];
  for (const entry of entries) {
    if (entry.voidOf !== null && present.has(entry.voidOf)) continue;
    rows.push(row(entry));
    const reversal = voids.get(entry.id);
    if (reversal) rows.push(row(reversal));
  }
  return rows;
}
