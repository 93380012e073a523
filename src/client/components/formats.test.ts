import { describe, expect, it } from 'vitest';
import { formattersFor } from '../i18n/use-i18n.ts';
import { dayText, usdEstimate } from './formats.ts';

describe('days and dollar estimates in each language', () => {
  it('keeps the ISO day in English and writes it the language’s way otherwise', () => {
    expect(dayText('2026-11-20', formattersFor('en'))).toBe('2026-11-20');
    expect(dayText('2026-11-20', formattersFor('ko'))).toBe('2026. 11. 20.');
    expect(dayText('2026-11-20', formattersFor('ms'))).toBe('20 Nov 2026');
  });

  it('names the US dollar in every language, with the sign before it', () => {
    expect(usdEstimate(313_579n, formattersFor('en'))).toBe('≈ US$3,135.79');
    expect(usdEstimate(-500n, formattersFor('en'))).toBe('≈ -US$5.00');
    expect(usdEstimate(313_579n, formattersFor('ko'))).toBe('≈ US$3,135.79');
    expect(usdEstimate(313_579n, formattersFor('ms'))).toMatch(/^≈ USD\s3,135\.79$/);
  });
});
