import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  convertToUsd,
  parseRate,
  rateToSave,
  unitsPerUsd,
  usdPerUnitFromUnits,
} from './exchange.ts';

const on = (date: string, usdPerUnit: string) => ({ usdPerUnit, date });

describe('parseRate', () => {
  it('reads a decimal exactly, scaled by 10^12', () => {
    expect(parseRate('0.00074')).toBe(740_000_000n);
    expect(parseRate('1')).toBe(1_000_000_000_000n);
    expect(parseRate('0.000000000001')).toBe(1n);
  });

  it.each(['0', '0.0', '-1', 'abc', '1e3', '.5', '1.', '0.0000000000001', '12345678901', ' 1'])(
    'refuses %j',
    (text) => {
      expect(parseRate(text)).toBeNull();
    },
  );
});

describe('convertToUsd', () => {
  it('converts every currency and rounds once, at the end (checked by hand)', () => {
    // KRW 3,000,000 × 0.00074 = 2,220.00; CAD 1,254.50 × 0.73 = 915.785; RM 50.00 × 0.21 = 10.50;
    // USD 10.00: 3,156.285 in all, rounded half away from zero to 3,156.29.
    const result = convertToUsd(
      [
        { currency: 'KRW', total: 3_000_000n },
        { currency: 'USD', total: 1_000n },
        { currency: 'CAD', total: 125_450n },
        { currency: 'MYR', total: 5_000n },
      ],
      {
        KRW: on('2026-11-20', '0.00074'),
        CAD: on('2026-11-21', '0.73'),
        MYR: on('2026-11-19', '0.21'),
      },
    );
    expect(result).toEqual({ usdMinor: 315_629n, ratesDate: '2026-11-19' });
  });

  it('does not round each currency on its own', () => {
    // Half a cent twice is one cent; rounding each half cent first would give two.
    const result = convertToUsd(
      [
        { currency: 'CAD', total: 1n },
        { currency: 'MYR', total: 1n },
      ],
      { CAD: on('2026-11-21', '0.5'), MYR: on('2026-11-21', '0.5') },
    );
    expect(result?.usdMinor).toBe(1n);
  });

  it('rounds negative totals away from zero too', () => {
    const result = convertToUsd([{ currency: 'CAD', total: -1n }], {
      CAD: on('2026-11-21', '0.5'),
    });
    expect(result?.usdMinor).toBe(-1n);
  });

  it('gives nothing when a currency present has no rate, or when all is in US dollars already', () => {
    expect(
      convertToUsd(
        [
          { currency: 'KRW', total: 1n },
          { currency: 'CAD', total: 1n },
        ],
        { KRW: on('2026-11-21', '0.001') },
      ),
    ).toBeNull();
    expect(convertToUsd([{ currency: 'USD', total: 100n }], {})).toBeNull();
    expect(convertToUsd([], {})).toBeNull();
  });

  it('at a rate of exactly 1 equals the sum in cents, KRW counted as whole units', () => {
    fc.assert(
      fc.property(
        fc.bigInt({ min: -(10n ** 15n), max: 10n ** 15n }),
        fc.bigInt({ min: -(10n ** 15n), max: 10n ** 15n }),
        (krw, cad) => {
          const result = convertToUsd(
            [
              { currency: 'KRW', total: krw },
              { currency: 'CAD', total: cad },
            ],
            { KRW: on('2026-01-01', '1'), CAD: on('2026-01-01', '1') },
          );
          expect(result?.usdMinor).toBe(krw * 100n + cad);
        },
      ),
    );
  });
});

describe('rates as people say them: 1 USD = 1,333 KRW', () => {
  it('stores what is typed as US dollars per unit, as the rates always were', () => {
    expect(usdPerUnitFromUnits('1,333')).toBe('0.000750187547');
    expect(usdPerUnitFromUnits('4.4725')).toBe('0.223588596982');
    expect(usdPerUnitFromUnits(' 1 370.5 ')).toBe('0.000729660708');
    expect(usdPerUnitFromUnits('1')).toBe('1');
    for (const refused of ['', '0', '-3', 'abc', '1e3', '1000000000000'])
      expect(usdPerUnitFromUnits(refused), refused).toBeNull();
  });

  it('shows a stored rate the other way round, so what was typed comes back as typed', () => {
    // Stored before this change: the same dollars per won, only shown the other way round.
    expect(unitsPerUsd('0.00074')).toBe('1351.3514');
    expect(unitsPerUsd('0.21')).toBe('4.7619048');
    expect(unitsPerUsd('1')).toBe('1');
    fc.assert(
      fc.property(
        // Up to 7 significant digits, up to 9,999.999 units a dollar: a won's rate and smaller.
        fc.integer({ min: 1, max: 9_999_999 }),
        fc.integer({ min: 3, max: 7 }),
        (digits, decimals) => {
          const typed = (digits / 10 ** decimals).toFixed(decimals).replace(/\.?0+$/, '');
          if (typed === '0') return;
          const stored = usdPerUnitFromUnits(typed);
          expect(stored).not.toBeNull();
          expect(unitsPerUsd(stored!)).toBe(typed);
        },
      ),
    );
  });

  it('saves a stored rate untouched while its figure was not changed', () => {
    expect(rateToSave('1351.3514', '0.00074')).toBe('0.00074');
    expect(rateToSave('1350', '0.00074')).toBe('0.000740740741');
    expect(rateToSave('1,333', undefined)).toBe('0.000750187547');
    expect(rateToSave('none', '0.00074')).toBeNull();
  });
});
