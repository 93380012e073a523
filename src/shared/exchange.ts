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

/**
 * Significant digits a rate is shown with as units per dollar: at most 8, and one fewer than the
 * stored rate holds (a won's 0.000750187547 holds 9; a far smaller unit's, fewer).
 */
const shownDigits = 8;

/** A scaled (times 10^12) positive figure as decimal text, trailing zeros dropped: "1333", "4.4725". */
function scaledText(scaled: bigint): string {
  const whole = scaled / rateScale;
  const fraction = (scaled % rateScale).toString().padStart(rateDecimals, '0').replace(/0+$/, '');
  return fraction === '' ? whole.toString() : `${whole}.${fraction}`;
}

/**
 * A stored rate (US dollars per unit, "0.00075") as people say it: units per US dollar ("1333.3333"
 * for "1 USD = 1,333.3333 KRW"), to `shownDigits`. Null for a rate we do not accept.
 */
export function unitsPerUsd(usdPerUnit: string): string | null {
  const scaled = parseRate(usdPerUnit);
  if (scaled === null) return null;
  let inverse = divideRounded(rateScale * rateScale, scaled);
  const digits = Math.max(1, Math.min(shownDigits, scaled.toString().length - 1));
  const extra = inverse.toString().length - digits;
  if (extra > 0) {
    const step = 10n ** BigInt(extra);
    inverse = divideRounded(inverse, step) * step;
  }
  return scaledText(inverse);
}

/**
 * What the owner typed as units per US dollar ("1,333" or "1333.5"; thousands separators and
 * spaces are ignored) as the stored rate, US dollars per unit to 12 decimals; null when it is not
 * a positive number, or so large that a unit is worth less than 10^-12 dollars.
 */
export function usdPerUnitFromUnits(typed: string): string | null {
  const units = parseRate(typed.replace(/[,\s]/g, ''));
  if (units === null) return null;
  const usd = divideRounded(rateScale * rateScale, units);
  return usd > 0n ? scaledText(usd) : null;
}

/**
 * The rate to save from the settings form: the stored one, untouched, while the figure shown for
 * it was not changed (so saving other settings never nudges a stored rate), else the typed one.
 */
export function rateToSave(typed: string, stored: string | undefined): string | null {
  if (stored !== undefined && typed.trim() === unitsPerUsd(stored)) return stored;
  return usdPerUnitFromUnits(typed);
}
