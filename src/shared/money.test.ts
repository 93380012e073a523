import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  currencies,
  currencyExponent,
  currencyLabel,
  formatBalanceFigure,
  formatFigure,
  formatMoney,
  isCurrency,
  maxAmountMinor,
  parseAmount,
  toDecimalText,
  totalsByCurrency,
  type Currency,
} from './money.ts';

const symbols: Record<Currency, string> = { KRW: '₩', USD: '$', CAD: 'CA$', MYR: 'RM ' };

const currencyArb = fc.constantFrom(...currencies);
const minorArb = fc.integer({ min: -maxAmountMinor, max: maxAmountMinor });

describe('constants', () => {
  it('describes the supported currencies', () => {
    expect(currencies).toEqual(['KRW', 'USD', 'CAD', 'MYR']);
    expect(currencyExponent).toEqual({ KRW: 0, USD: 2, CAD: 2, MYR: 2 });
    expect(currencyLabel).toEqual({ KRW: 'KRW', USD: 'USD', CAD: 'CAD', MYR: 'RM' });
    expect(maxAmountMinor).toBe(10 ** 13 - 1);
    expect(Number.isSafeInteger(maxAmountMinor)).toBe(true);
  });

  it('recognises currencies', () => {
    for (const currency of currencies) expect(isCurrency(currency)).toBe(true);
    for (const value of ['usd', 'RM', 'EUR', '', ' USD', null, undefined, 1, {}, ['USD']]) {
      expect(isCurrency(value)).toBe(false);
    }
  });
});

describe('parseAmount', () => {
  const ok = (minor: number) => ({ ok: true, minor });
  const error = (message: string) => ({ ok: false, error: message });

  it.each([
    ['1,234.5', 'USD', 123450],
    ['1234.50', 'USD', 123450],
    ['1,234,567', 'USD', 123456700],
    ['1,234,567', 'KRW', 1234567],
    ['-20', 'USD', -2000],
    ['-20', 'KRW', -20],
    ['+20', 'CAD', 2000],
    ['-1,234.05', 'MYR', -123405],
    ['.5', 'USD', 50],
    ['-.5', 'USD', -50],
    ['5.', 'USD', 500],
    ['5.', 'KRW', 5],
    ['0.01', 'USD', 1],
    ['007', 'KRW', 7],
    ['3000000', 'KRW', 3000000],
    ['  12.3 \t\n', 'USD', 1230],
    ['', 'USD', 0],
    ['   ', 'KRW', 0],
  ] as const)('parses %j as %s into %d', (text, currency, minor) => {
    expect(parseAmount(text, currency)).toEqual(ok(minor));
  });

  it('gives 0, not -0, for negative zero', () => {
    for (const text of ['-0', '-0.00', '-.0', '-0,000']) {
      const result = parseAmount(text, 'USD');
      expect(result).toEqual(ok(0));
      expect(result.ok && Object.is(result.minor, -0)).toBe(false);
    }
  });

  it('refuses decimals KRW does not have', () => {
    expect(parseAmount('12.5', 'KRW')).toEqual(error('KRW has no decimal places.'));
    expect(parseAmount('12.0', 'KRW')).toEqual(error('KRW has no decimal places.'));
    expect(parseAmount('.5', 'KRW')).toEqual(error('KRW has no decimal places.'));
  });

  it('refuses more than two decimals for the other currencies, trailing zeros included', () => {
    for (const currency of ['USD', 'CAD', 'MYR'] as const) {
      expect(parseAmount('1.234', currency)).toEqual(error('Use at most 2 decimal places.'));
      expect(parseAmount('1.500', currency)).toEqual(error('Use at most 2 decimal places.'));
    }
  });

  it.each([
    '12,34',
    ',123',
    '1,,234',
    '1234,567',
    '1,234,56',
    '1.2,34',
    '1.2.3',
    '..5',
    '.',
    '-',
    '+',
    '--1',
    '+-1',
    '-+1',
    '1-',
    '1e5',
    '$5',
    '5$',
    '1 000',
    '- 5',
    'abc',
    '12a',
    'NaN',
    'Infinity',
    '-Infinity',
    '0x10',
    '１２',
    '١٢',
  ])('refuses %j', (text) => {
    expect(parseAmount(text, 'USD')).toEqual(error('Enter a valid amount.'));
  });

  it('accepts a grouped integer with a bare decimal point', () => {
    expect(parseAmount('1,234.', 'USD')).toEqual(ok(123400));
  });

  it('accepts amounts up to the bound and refuses larger ones exactly', () => {
    expect(parseAmount('99,999,999,999.99', 'USD')).toEqual(ok(maxAmountMinor));
    expect(parseAmount('-99999999999.99', 'CAD')).toEqual(ok(-maxAmountMinor));
    expect(parseAmount('9999999999999', 'KRW')).toEqual(ok(maxAmountMinor));
    expect(parseAmount('100000000000', 'USD')).toEqual(error('This amount is too large.'));
    expect(parseAmount('-100000000000.00', 'USD')).toEqual(error('This amount is too large.'));
    expect(parseAmount('10000000000000', 'KRW')).toEqual(error('This amount is too large.'));
    // 10^13 + 1 and 2^53 + 1 would be misjudged or rounded as floats.
    expect(parseAmount('10000000000001', 'KRW')).toEqual(error('This amount is too large.'));
    expect(parseAmount('9007199254740993', 'KRW')).toEqual(error('This amount is too large.'));
    expect(parseAmount('9'.repeat(400), 'KRW')).toEqual(error('This amount is too large.'));
    expect(parseAmount('0'.repeat(400) + '1', 'KRW')).toEqual(ok(1));
  });

  it('checks the decimals before the size', () => {
    expect(parseAmount('100000000000.001', 'USD')).toEqual(error('Use at most 2 decimal places.'));
  });
});

describe('toDecimalText', () => {
  it.each([
    [123450, 'USD', '1234.50'],
    [-5, 'USD', '-0.05'],
    [5, 'CAD', '0.05'],
    [0, 'MYR', '0.00'],
    [-0, 'USD', '0.00'],
    [100, 'USD', '1.00'],
    [3000000, 'KRW', '3000000'],
    [-20, 'KRW', '-20'],
    [0, 'KRW', '0'],
    [maxAmountMinor, 'USD', '99999999999.99'],
    [12345678901234567890n, 'USD', '123456789012345678.90'],
    [-12345678901234567890n, 'KRW', '-12345678901234567890'],
  ] as const)('writes %s %s as %j', (minor, currency, text) => {
    expect(toDecimalText(minor, currency)).toBe(text);
  });

  it('refuses numbers that are not safe integers', () => {
    expect(() => toDecimalText(1.5, 'USD')).toThrow(RangeError);
    expect(() => toDecimalText(Number.NaN, 'USD')).toThrow(RangeError);
    expect(() => toDecimalText(2 ** 53, 'KRW')).toThrow(RangeError);
  });
});

describe('formatMoney', () => {
  it.each([
    [123450, 'USD', '$1,234.50'],
    [123450, 'CAD', 'CA$1,234.50'],
    [3000000, 'KRW', '₩3,000,000'],
    [5000, 'MYR', 'RM 50.00'],
    [123456789, 'MYR', 'RM 1,234,567.89'],
    [0, 'USD', '$0.00'],
    [-0, 'USD', '$0.00'],
    [0, 'MYR', 'RM 0.00'],
    [-2000, 'USD', '-$20.00'],
    [-2000, 'CAD', '-CA$20.00'],
    [-500, 'MYR', '-RM 5.00'],
    [-5, 'USD', '-$0.05'],
    [-1500, 'KRW', '-₩1,500'],
    [maxAmountMinor, 'USD', '$99,999,999,999.99'],
    [12345678901234567890n, 'USD', '$123,456,789,012,345,678.90'],
    [-12345678901234567890n, 'MYR', '-RM 123,456,789,012,345,678.90'],
    [12345678901234567890n, 'KRW', '₩12,345,678,901,234,567,890'],
  ] as const)('shows %s %s as %j', (minor, currency, text) => {
    expect(formatMoney(minor, currency)).toBe(text);
  });

  it.each([
    [123450, 'USD', 'ko-KR', 'US$1,234.50'],
    [3000000, 'KRW', 'ko-KR', '₩3,000,000'],
    [-500, 'MYR', 'ko-KR', '-RM 5.00'],
    [12345678901234567890n, 'KRW', 'ko-KR', '₩12,345,678,901,234,567,890'],
    [123450, 'CAD', 'ms-MY', 'CAD 1,234.50'],
    [5000, 'MYR', 'ms-MY', 'RM 50.00'],
    [-1500, 'KRW', 'ms-MY', '-₩1,500'],
  ] as const)('shows %s %s in %s as %j', (minor, currency, locale, text) => {
    expect(formatMoney(minor, currency, locale).replace(/\u00a0/g, ' ')).toBe(text);
  });

  it('never shows MYR by its code', () => {
    fc.assert(
      fc.property(minorArb, (minor) => {
        for (const locale of ['en-US', 'ko-KR', 'ms-MY']) {
          const text = formatMoney(minor, 'MYR', locale);
          expect(text).toMatch(/^-?RM [0-9]/);
          expect(text).not.toContain('MYR');
        }
      }),
    );
  });
});

describe('round trips', () => {
  it('parses toDecimalText back to the same minor units', () => {
    fc.assert(
      fc.property(currencyArb, minorArb, (currency, minor) => {
        expect(parseAmount(toDecimalText(minor, currency), currency)).toEqual({ ok: true, minor });
      }),
    );
  });

  it('parses formatMoney without its symbol back to the same minor units', () => {
    fc.assert(
      fc.property(currencyArb, minorArb, (currency, minor) => {
        const shown = formatMoney(minor, currency);
        const sign = shown.startsWith('-') ? '-' : '';
        const rest = shown.slice(sign.length);
        expect(rest.startsWith(symbols[currency])).toBe(true);
        const text = sign + rest.slice(symbols[currency].length);
        expect(parseAmount(text, currency)).toEqual({ ok: true, minor });
      }),
    );
  });

  it('round-trips the bounds and small amounts', () => {
    for (const currency of currencies) {
      for (const minor of [-maxAmountMinor, -1, 0, 1, 999, 1000, maxAmountMinor]) {
        expect(parseAmount(toDecimalText(minor, currency), currency)).toEqual({ ok: true, minor });
      }
    }
  });
});

describe('totalsByCurrency', () => {
  const balanceArb = fc.oneof(
    minorArb,
    fc.maxSafeInteger(),
    fc.bigInt({ min: -(2n ** 70n), max: 2n ** 70n }),
  );
  const itemsArb = fc.array(fc.record({ balance: balanceArb, currency: currencyArb }), {
    maxLength: 60,
  });

  it('sums exactly per currency, in the order of currencies, leaving out empty ones', () => {
    fc.assert(
      fc.property(itemsArb, (items) => {
        const totals = totalsByCurrency(items);

        const expected = currencies
          .filter((currency) => items.some((item) => item.currency === currency))
          .map((currency) => ({
            currency,
            total: items
              .filter((item) => item.currency === currency)
              .reduce((sum, item) => sum + BigInt(item.balance), 0n),
          }));
        expect(totals).toEqual(expected);

        const all = items.reduce((sum, item) => sum + BigInt(item.balance), 0n);
        expect(totals.reduce((sum, { total }) => sum + total, 0n)).toBe(all);
      }),
    );
  });

  it('stays exact past 2^53', () => {
    const items = [
      { balance: maxAmountMinor, currency: 'USD' as const },
      { balance: maxAmountMinor, currency: 'USD' as const },
      { balance: 1, currency: 'USD' as const },
      ...Array.from({ length: 1000 }, () => ({
        balance: maxAmountMinor,
        currency: 'KRW' as const,
      })),
    ];
    expect(totalsByCurrency(items)).toEqual([
      { currency: 'KRW', total: 9_999_999_999_999_000n },
      { currency: 'USD', total: 19_999_999_999_999n },
    ]);
  });

  it('gives nothing for no items and accepts any iterable', () => {
    expect(totalsByCurrency([])).toEqual([]);
    function* items() {
      yield { balance: 100, currency: 'MYR' as const };
      yield { balance: -100n, currency: 'MYR' as const };
    }
    expect(totalsByCurrency(items())).toEqual([{ currency: 'MYR', total: 0n }]);
  });

  it('refuses an unknown currency rather than dropping it', () => {
    const items = [{ balance: 1, currency: 'EUR' as Currency }];
    expect(() => totalsByCurrency(items)).toThrow(RangeError);
  });
});

describe('parseAmount on arbitrary input', () => {
  const checkResult = (text: string, currency: Currency) => {
    const result = parseAmount(text, currency);
    if (result.ok) {
      expect(Number.isSafeInteger(result.minor)).toBe(true);
      expect(Math.abs(result.minor)).toBeLessThanOrEqual(maxAmountMinor);
      expect(Object.is(result.minor, -0)).toBe(false);
    } else {
      expect(typeof result.error).toBe('string');
    }
  };

  it('never throws on any string', () => {
    for (const unit of ['grapheme-ascii', 'grapheme', 'binary'] as const) {
      fc.assert(fc.property(fc.string({ unit }), currencyArb, checkResult));
    }
  });

  it('never throws on amount-like strings', () => {
    const unit = fc.constantFrom('0', '1', '5', '9', ',', '.', '-', '+', ' ', 'e');
    fc.assert(fc.property(fc.string({ unit, maxLength: 30 }), currencyArb, checkResult));
  });
});

describe('formatFigure', () => {
  it('writes a column figure with no symbol, a credit in parentheses and zero as nothing', () => {
    expect(formatFigure(123_450, 'USD')).toBe('1,234.50');
    expect(formatFigure(-70_000_000, 'KRW', 'ko-KR')).toBe('(70,000,000)');
    expect(formatFigure(-5, 'MYR', 'ms-MY')).toBe('(0.05)');
    expect(formatFigure(0, 'CAD')).toBe('');
    expect(formatFigure(0n, 'KRW')).toBe('');
    // Beyond 2^53 it stays exact.
    expect(formatFigure(12_345_678_901_234_567n, 'KRW')).toBe('12,345,678,901,234,567');
  });

  it("writes a balance of zero as a figure, in the currency's decimals", () => {
    expect(formatBalanceFigure(0, 'USD')).toBe('0.00');
    expect(formatBalanceFigure(0n, 'KRW', 'ko-KR')).toBe('0');
    expect(formatBalanceFigure(-5, 'MYR', 'ms-MY')).toBe('(0.05)');
  });
});
