export const currencies = ['KRW', 'USD', 'CAD', 'MYR'] as const;
export type Currency = (typeof currencies)[number];

export const currencyExponent: Record<Currency, number> = { KRW: 0, USD: 2, CAD: 2, MYR: 2 };

/** What a person sees for the currency in a select box: MYR is shown as "RM", the others by code. */
export const currencyLabel: Record<Currency, string> = {
  KRW: 'KRW',
  USD: 'USD',
  CAD: 'CAD',
  MYR: 'RM',
};

/** Largest absolute amount in minor units for one balance: 10^13 - 1 (so sums of many stay exact with bigint, and one amount is a safe integer). */
export const maxAmountMinor = 9_999_999_999_999;

const maxAmountMinorBig = BigInt(maxAmountMinor);

export function isCurrency(value: unknown): value is Currency {
  return typeof value === 'string' && (currencies as readonly string[]).includes(value);
}

export type ParseResult = { ok: true; minor: number } | { ok: false; error: string };

// Grouping commas must form whole groups of three; the integer part may be empty for ".5".
const amountPattern = /^([+-]?)((?:[0-9]{1,3}(?:,[0-9]{3})+)|[0-9]*)(?:\.([0-9]*))?$/;

/** Parses what a person types into integer minor units of the currency. */
export function parseAmount(text: string, currency: Currency): ParseResult {
  const trimmed = text.trim();
  if (trimmed === '') return { ok: true, minor: 0 };

  const match = amountPattern.exec(trimmed);
  const sign = match?.[1] ?? '';
  const integerPart = (match?.[2] ?? '').replaceAll(',', '');
  const fraction = match?.[3] ?? '';
  if (!match || (integerPart === '' && fraction === '')) {
    return { ok: false, error: 'Enter a valid amount.' };
  }

  const exponent = currencyExponent[currency];
  if (fraction.length > exponent) {
    return {
      ok: false,
      error:
        exponent === 0
          ? `${currency} has no decimal places.`
          : `Use at most ${exponent} decimal places.`,
    };
  }

  const magnitude = BigInt((integerPart || '0') + fraction.padEnd(exponent, '0'));
  if (magnitude > maxAmountMinorBig) return { ok: false, error: 'This amount is too large.' };

  const minor = Number(sign === '-' ? -magnitude : magnitude);
  return { ok: true, minor };
}

function toBigInt(minor: number | bigint): bigint {
  if (typeof minor === 'bigint') return minor;
  // A float or an unsafe integer here means the amount is already wrong; showing it would hide that.
  if (!Number.isSafeInteger(minor)) {
    throw new RangeError(`amount in minor units must be a safe integer, got ${minor}`);
  }
  return BigInt(minor);
}

/** Minor units -> plain decimal text with exactly the currency's decimals, no grouping: 123450,'USD' -> "1234.50"; -5,'USD' -> "-0.05"; 3000000,'KRW' -> "3000000". Accepts number (safe integer) or bigint. */
export function toDecimalText(minor: number | bigint, currency: Currency): string {
  const value = toBigInt(minor);
  const exponent = currencyExponent[currency];
  const digits = (value < 0n ? -value : value).toString().padStart(exponent + 1, '0');
  const sign = value < 0n ? '-' : '';
  if (exponent === 0) return sign + digits;
  const point = digits.length - exponent;
  return `${sign}${digits.slice(0, point)}.${digits.slice(point)}`;
}

const formatters = new Map<string, Intl.NumberFormat>();

function formatterFor(currency: Currency, locale: string): Intl.NumberFormat {
  const key = `${locale} ${currency}`;
  let formatter = formatters.get(key);
  if (!formatter) {
    const exponent = currencyExponent[currency];
    formatter = new Intl.NumberFormat(locale, {
      style: 'currency',
      currency,
      minimumFractionDigits: exponent,
      maximumFractionDigits: exponent,
    });
    formatters.set(key, formatter);
  }
  return formatter;
}

/**
 * Display with Intl.NumberFormat, in en-US unless another locale (ko-KR, ms-MY) is given: USD
 * "$1,234.50", CAD "CA$1,234.50", KRW "₩3,000,000", MYR "RM 50.00" in every locale; negatives
 * like "-$20.00" / "-RM 5.00". Exact for bigint totals beyond 2^53.
 */
export function formatMoney(
  minor: number | bigint,
  currency: Currency,
  locale: string = 'en-US',
): string {
  // A decimal string is formatted exactly, where a number would round beyond 2^53.
  const decimal = toDecimalText(minor, currency) as Intl.StringNumericLiteral;
  const formatter = formatterFor(currency, locale);
  if (currency !== 'MYR') return formatter.format(decimal);

  // Intl spells the symbol "MYR" (with a no-break space in some engines); people there write "RM ".
  return formatter
    .formatToParts(decimal)
    .filter((part) => !(part.type === 'literal' && part.value.trim() === ''))
    .map((part) => (part.type === 'currency' ? 'RM ' : part.value))
    .join('');
}

/** Exact per-currency sums, in the order of `currencies`, leaving out currencies with no items. */
export function totalsByCurrency(
  items: Iterable<{ balance: number | bigint; currency: Currency }>,
): { currency: Currency; total: bigint }[] {
  const totals = new Map<Currency, bigint>();
  for (const { balance, currency } of items) {
    // Dropping an unknown currency would make the totals silently disagree with the items.
    if (!isCurrency(currency)) throw new RangeError(`unknown currency ${String(currency)}`);
    totals.set(currency, (totals.get(currency) ?? 0n) + toBigInt(balance));
  }
  return currencies.flatMap((currency) => {
    const total = totals.get(currency);
    return total === undefined ? [] : [{ currency, total }];
  });
}

const figureFormatters = new Map<string, Intl.NumberFormat>();

/**
 * An amount as a statement's column shows it, the currency named once above the columns: no
 * symbol, the currency's decimals, grouped as the locale groups digits; a credit (below 0) in
 * parentheses, as accountants write it in every language we speak; zero as an empty cell.
 * 123450,'USD' -> "1,234.50"; -70000000,'KRW' -> "(70,000,000)"; 0 -> "".
 */
export function formatFigure(
  minor: number | bigint,
  currency: Currency,
  locale: string = 'en-US',
): string {
  return toBigInt(minor) === 0n ? '' : formatBalanceFigure(minor, currency, locale);
}

/**
 * A balance as a statement's balance column shows it: as `formatFigure`, but zero is a figure
 * too ("0.00"), since a balance of nothing is a fact the client reads, not an empty cell.
 */
export function formatBalanceFigure(
  minor: number | bigint,
  currency: Currency,
  locale: string = 'en-US',
): string {
  const value = toBigInt(minor);
  const key = `${locale} ${currency}`;
  let formatter = figureFormatters.get(key);
  if (!formatter) {
    const exponent = currencyExponent[currency];
    formatter = new Intl.NumberFormat(locale, {
      minimumFractionDigits: exponent,
      maximumFractionDigits: exponent,
    });
    figureFormatters.set(key, formatter);
  }
  const magnitude = formatter.format(
    toDecimalText(value < 0n ? -value : value, currency) as Intl.StringNumericLiteral,
  );
  return value < 0n ? `(${magnitude})` : magnitude;
}
