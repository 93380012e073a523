import { currencyExponent, type Currency } from '../../../../shared/money.ts';
import type { Overview } from '../../../../shared/schemas/overview.ts';

const monthFormats = new Map<string, Intl.DateTimeFormat>();
/** A month (YYYY-MM) as the language names it: "Nov 2026", "2026년 11월". */
export function monthLabel(month: string, intlLocale: string): string {
  let format = monthFormats.get(intlLocale);
  if (!format) {
    format = new Intl.DateTimeFormat(intlLocale, {
      month: 'short',
      year: 'numeric',
      timeZone: 'UTC',
    });
    monthFormats.set(intlLocale, format);
  }
  return format.format(new Date(`${month}-01T00:00:00Z`));
}

/** A height on the chart's scale; exact amounts are in the tooltips and the tables. */
export const drawn = (minor: string, currency: Currency) =>
  Number(minor) / 10 ** currencyExponent[currency];

const compactFormats = new Map<string, Intl.NumberFormat>();
/** An axis label: "$1.2M", "₩123.5만", "RM 1.2J". */
export function compactMoney(value: number, currency: Currency, intlLocale: string): string {
  let format = compactFormats.get(`${intlLocale} ${currency}`);
  if (!format) {
    format = new Intl.NumberFormat(intlLocale, {
      style: 'currency',
      currency,
      notation: 'compact',
      maximumFractionDigits: 1,
    });
    compactFormats.set(`${intlLocale} ${currency}`, format);
  }
  // As formatMoney does: people there write "RM", whatever Intl spells.
  return currency === 'MYR' ? format.format(value).replace(/MYR\s*/, 'RM ') : format.format(value);
}

export function seriesOf(overview: Overview, currency: Currency) {
  return overview.history.series.find((series) => series.currency === currency)?.totals ?? null;
}
