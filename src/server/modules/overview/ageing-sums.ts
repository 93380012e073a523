import { currencies, type Currency } from '../../../shared/money.ts';
import { ageingBuckets, type AgeingBucket } from '../ledger/ageing.ts';
import { ageingByCurrency } from '../ledger/ledger.queries.ts';
import type { Executor } from '../../db/database.ts';

export type BucketSums = Record<AgeingBucket, bigint>;

/**
 * The owner's unpaid amounts per currency and ageing bucket on `today`: what both
 * `GET /api/ageing` and the overview's cards show. A currency with nothing unpaid is absent.
 */
export async function ageingSums(
  db: Executor,
  bookId: string,
  today: string,
): Promise<Map<Currency, BucketSums>> {
  const rows = await ageingByCurrency(db, bookId, today);
  const sums = new Map<Currency, BucketSums>();
  for (const currency of currencies) {
    const mine = rows.filter((row) => row.currency === currency);
    if (mine.length === 0) continue;
    const bucket = (name: AgeingBucket) =>
      mine.filter((row) => row.bucket === name).reduce((sum, row) => sum + row.total, 0n);
    sums.set(
      currency,
      Object.fromEntries(ageingBuckets.map((name) => [name, bucket(name)])) as BucketSums,
    );
  }
  return sums;
}

/** Each bucket's sum as the API writes amounts: decimal text of minor units. */
export const bucketsAsText = (sums: BucketSums) =>
  Object.fromEntries(ageingBuckets.map((name) => [name, sums[name].toString()])) as Record<
    AgeingBucket,
    string
  >;
