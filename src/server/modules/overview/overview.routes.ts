import { currentBook } from '../books/current-book.ts';
import type { FastifyPluginAsync } from 'fastify';
import { apiRoutes } from '../../../shared/api-routes.ts';
import { handle } from '../../described-route.ts';
import { convertToUsd, type RateOf } from '../../../shared/exchange.ts';
import { currencies, type Currency } from '../../../shared/money.ts';
import { utcDay } from '../../../shared/dates.ts';
import { ageingBuckets } from '../ledger/ageing.ts';
import { overviewMonths, type Overview } from '../../../shared/schemas/overview.ts';
import type { Ageing } from '../../../shared/schemas/clients.ts';
import { requireUser } from '../auth/session.ts';
import { readRates } from '../settings/settings.queries.ts';
import {
  ledgerByMonthSince,
  overdueClientsByCurrency,
  positionsByCurrency,
  type CurrencyPosition,
} from '../ledger/ledger.queries.ts';
import { ageingSums, bucketsAsText, type BucketSums } from './ageing-sums.ts';
import { latestEventId } from '../events/events.queries.ts';
import { sharedWhileRunning } from './shared-work.ts';
import { largestDebtors } from './overview.queries.ts';

const debtorsShown = 5;

/** The first day of the month `offset` months after the month of `day` (YYYY-MM-DD). */
function monthStart(day: string, offset: number): string {
  const date = new Date(`${day.slice(0, 7)}-01T00:00:00Z`);
  date.setUTCMonth(date.getUTCMonth() + offset);
  return utcDay(date);
}

/** US cents of an amount at the owner's rates; null without a rate for its currency. */
function usdValue(balance: number, currency: Currency, rates: Partial<Record<Currency, RateOf>>) {
  if (currency === 'USD') return BigInt(balance);
  return convertToUsd([{ currency, total: BigInt(balance) }], rates)?.usdMinor ?? null;
}

/** GET /api/overview, the dashboard's summary (see overviewSchema), and GET /api/ageing. */
export const overviewRoutes: FastifyPluginAsync = async (app) => {
  const { kysely: db } = app.db;
  app.addHook('onRequest', requireUser);

  async function largest(
    bookId: string,
    owing: Currency[],
    rates: Partial<Record<Currency, RateOf>>,
  ): Promise<Overview['largestDebtors']> {
    // The five largest overall are among the five largest of each currency, whatever the rates.
    const perCurrency = await Promise.all(
      owing.map((currency) => largestDebtors(db, bookId, currency, debtorsShown)),
    );
    const valued = perCurrency.flat().map((debtor) => ({
      ...debtor,
      usd: usdValue(debtor.balance, debtor.currency, rates),
    }));
    const canConvert = owing.length > 1 && valued.every((debtor) => debtor.usd !== null);
    if (!canConvert) {
      return {
        ranking: 'currency',
        ratesDate: null,
        debtors: valued.map(({ usd: _usd, ...debtor }) => ({ ...debtor, usdValue: null })),
      };
    }
    const ranked = valued
      .sort((a, b) => (a.usd === b.usd ? 0 : (a.usd as bigint) > (b.usd as bigint) ? -1 : 1))
      .slice(0, debtorsShown);
    const ratesDate = ranked
      .flatMap((debtor) => (debtor.currency === 'USD' ? [] : [rates[debtor.currency]?.date ?? '']))
      .reduce<string | null>(
        (oldest, date) => (oldest === null || date < oldest ? date : oldest),
        null,
      );
    return {
      ranking: 'converted',
      ratesDate,
      debtors: ranked.map(({ usd, ...debtor }) => ({ ...debtor, usdValue: String(usd) })),
    };
  }

  /**
   * The sum of all balances at each of the last months' ends: today's total less the net
   * changes of the months after it, which the ledger's write path keeps per month.
   */
  async function history(
    bookId: string,
    today: string,
    positions: CurrencyPosition[],
  ): Promise<Overview['history']> {
    const first = monthStart(today, -(overviewMonths - 1));
    const months = Array.from({ length: overviewMonths }, (_, index) =>
      monthStart(first, index).slice(0, 7),
    );
    const rows = await ledgerByMonthSince(db, bookId, first.slice(0, 7));
    const series = currencies.flatMap((currency) => {
      const position = positions.find((candidate) => candidate.currency === currency);
      const now = position ? position.owed - position.credits : 0n;
      const mine = rows.filter((row) => row.currency === currency);
      const totals = months.map((month) =>
        mine.reduce((total, row) => (row.month > month ? total - row.total : total), now),
      );
      // A currency the ledger only passed through (a client's currency changed) has nothing to draw.
      if (totals.every((total) => total === 0n)) return [];
      return [{ currency, totals: totals.map(String) }];
    });
    return { months, series };
  }

  handle(app, apiRoutes.ageing, async (request) => {
    const asOf = utcDay();
    const sums = await ageingSums(db, currentBook(request).id, asOf);
    const ageing: Ageing = {
      asOf,
      currencies: [...sums].map(([currency, buckets]) => ({
        currency,
        owed: ageingBuckets.reduce((sum, name) => sum + buckets[name], 0n).toString(),
        buckets: bucketsAsText(buckets),
      })),
    };
    return ageing;
  });

  // Every open dashboard asks again on each change it hears of: those asking about the same
  // change share one working out. Keyed by the owner's latest event, read first, so an answer
  // is never older than the change a caller has seen.
  const sharedOverview = sharedWhileRunning<Overview>();

  handle(app, apiRoutes.overview, async (request) => {
    const bookId = currentBook(request).id;
    const asOf = utcDay();
    const key = `${bookId} ${asOf} ${await latestEventId(db, bookId)}`;
    return sharedOverview(key, () => overviewOf(bookId, asOf));
  });

  async function overviewOf(bookId: string, asOf: string): Promise<Overview> {
    const [positions, overdueClients, ageing, rateRows] = await Promise.all([
      positionsByCurrency(db, bookId),
      overdueClientsByCurrency(db, bookId, asOf),
      ageingSums(db, bookId, asOf),
      readRates(db, bookId),
    ]);
    const rates = Object.fromEntries(rateRows.map((rate) => [rate.currency, rate]));
    const owing = currencies.filter((currency) =>
      positions.some((position) => position.currency === currency && position.owed > 0n),
    );
    const overview: Overview = {
      asOf,
      currencies: currencies.flatMap((currency) => {
        const position = positions.find((candidate) => candidate.currency === currency);
        if (!position) return [];
        const sums =
          ageing.get(currency) ??
          (Object.fromEntries(ageingBuckets.map((name) => [name, 0n])) as BucketSums);
        const overdue = ageingBuckets
          .filter((name) => name !== 'current')
          .reduce((sum, name) => sum + sums[name], 0n);
        const buckets = bucketsAsText(sums);
        return [
          {
            currency,
            owed: position.owed.toString(),
            credits: position.credits.toString(),
            clientsOwing: position.clientsOwing,
            clientsInCredit: position.clientsInCredit,
            overdue: overdue.toString(),
            clientsOverdue: overdueClients.get(currency) ?? 0,
            buckets,
          },
        ];
      }),
      largestDebtors: await largest(bookId, owing, rates),
      history: await history(bookId, asOf, positions),
    };
    return overview;
  }
};
