import { currencyExponent, type Currency } from './money.ts';

/** Decimal places a rate may have: enough for one won in dollars (0.000 7…) with room to spare. */
export const rateDecimals = 12;
const rateScale = 10n ** BigInt(rateDecimals);

export const ratePattern = new RegExp(`^(?:0|[1-9]\\d{0,9})(?:\\.\\d{1,${rateDecimals}})?$`);

/** "0.00074" -> 740000000n (the rate times 10^12), exactly; null if it is not a rate we accept. */
export function parseRate(text: string): bigint | null {
  if (!ratePattern.test(text)) return null;
  const [whole = '0', fraction = ''] = text.split('.');
  const scaled = BigInt(whole) * rateScale + BigInt(fraction.padEnd(rateDecimals, '0'));
  return scaled > 0n ? scaled : null;
}

export interface RateOf {
  usdPerUnit: string;
  date: string;
}

/** Divides and rounds half away from zero: the one rounding of a conversion. */
function divideRounded(numerator: bigint, denominator: bigint): bigint {
  const quotient = numerator / denominator;
  const remainder = numerator % denominator;
  if (remainder * 2n >= denominator) return quotient + 1n;
  if (remainder * 2n <= -denominator) return quotient - 1n;
  return quotient;
}

/**
 * The totals converted into US cents, exact until one rounding at the end, with the date of the
 * oldest rate used. Null when a currency present has no rate, or when nothing needs converting.
 */
export function convertToUsd(
  totals: { currency: Currency; total: bigint }[],
  rates: Partial<Record<Currency, RateOf>>,
): { usdMinor: bigint; ratesDate: string } | null {
  if (!totals.some(({ currency }) => currency !== 'USD')) return null;
  let scaledCents = 0n;
  let ratesDate: string | null = null;
  for (const { currency, total } of totals) {
    if (currency === 'USD') {
      scaledCents += total * rateScale;
      continue;
    }
    const rate = rates[currency];
    const scaledRate = rate ? parseRate(rate.usdPerUnit) : null;
    if (!rate || scaledRate === null) return null;
    // Minor units -> US cents: times the rate, times 10^(2 - exponent); every exponent is 0 or 2.
    scaledCents += total * scaledRate * 10n ** BigInt(2 - currencyExponent[currency]);
    if (ratesDate === null || rate.date < ratesDate) ratesDate = rate.date;
  }
  return ratesDate === null ? null : { usdMinor: divideRounded(scaledCents, rateScale), ratesDate };
}
