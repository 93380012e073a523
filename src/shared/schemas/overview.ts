import { z } from 'zod/mini';
import { currencyField } from './clients.ts';

/** Months the chart of the total owed covers, the current one last. */
export const overviewMonths = 12;

/** Exact amounts in minor units, as decimal text: sums of many balances may pass 2^53. */
const amount = z.string();

const overviewBucketsSchema = z.object({
  current: amount,
  days1to30: amount,
  days31to60: amount,
  days61to90: amount,
  over90: amount,
});

/**
 * How the largest debtors are ranked: by their value in US dollars at the owner's rates when
 * there are debtors in more than one currency and a rate for each; otherwise within each
 * currency (five per currency), since amounts in different currencies cannot be compared.
 */
const debtorRankings = ['converted', 'currency'] as const;

/**
 * GET /api/overview: the dashboard's summary, per currency. `owed` sums the balances above 0,
 * `credits` the balances below 0 (as a positive amount), so `owed - credits` is the "Total Owed"
 * line. `overdue` is the part of `owed` that fell due before `asOf`. `history` holds, for each
 * of the last months, the sum of all balances at the month's end (the current month: so far).
 */
export const overviewSchema = z.object({
  asOf: z.string(),
  currencies: z.array(
    z.object({
      currency: currencyField,
      owed: amount,
      credits: amount,
      clientsOwing: z.number(),
      clientsInCredit: z.number(),
      overdue: amount,
      clientsOverdue: z.number(),
      buckets: overviewBucketsSchema,
    }),
  ),
  largestDebtors: z.object({
    ranking: z.enum(debtorRankings),
    /** The date of the oldest rate used, when ranked by converted value. */
    ratesDate: z.nullable(z.string()),
    debtors: z.array(
      z.object({
        id: z.string(),
        firstName: z.string(),
        lastName: z.string(),
        balance: z.number(),
        currency: currencyField,
        /** Its value in US cents at the owner's rates, when ranked by converted value. */
        usdValue: z.nullable(amount),
      }),
    ),
  }),
  history: z.object({
    /** YYYY-MM, oldest first. */
    months: z.array(z.string()),
    series: z.array(z.object({ currency: currencyField, totals: z.array(amount) })),
  }),
});
export type Overview = z.infer<typeof overviewSchema>;
