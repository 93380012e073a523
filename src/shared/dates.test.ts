import { describe, expect, it } from 'vitest';
import { utcDay } from './dates.ts';

describe('utcDay', () => {
  it('names the UTC day of a moment, on both sides of midnight and back again', () => {
    const midnight = Date.UTC(2026, 10, 24);
    expect(utcDay(midnight - 1)).toBe('2026-11-23');
    expect(utcDay(midnight)).toBe('2026-11-24');
    expect(utcDay(midnight + 86_399_999)).toBe('2026-11-24');
    expect(utcDay(midnight + 86_400_000)).toBe('2026-11-25');
    // An earlier day again after a later one: the day kept from the last call is not reused.
    expect(utcDay(midnight - 1)).toBe('2026-11-23');
  });

  it('takes a Date as well, and days before 1970', () => {
    expect(utcDay(new Date('2024-02-29T23:59:59.999Z'))).toBe('2024-02-29');
    expect(utcDay(Date.UTC(1969, 11, 31, 12))).toBe('1969-12-31');
    expect(utcDay(Date.UTC(1970, 0, 1))).toBe('1970-01-01');
  });

  it('refuses a moment that is not one, as toISOString does', () => {
    expect(() => utcDay(Number.NaN)).toThrow(RangeError);
  });
});
