import { describe, expect, it } from 'vitest';
import { isLocale, pickLocale } from './locales.ts';

describe('pickLocale', () => {
  it('takes the first spoken language of a browser list', () => {
    expect(pickLocale(['fr-FR', 'ms-MY', 'ko'])).toBe('ms');
    expect(pickLocale(['ko-KR', 'en-US'])).toBe('ko');
  });

  it('honours the weights of an Accept-Language header', () => {
    expect(pickLocale('en;q=0.5, ko-KR;q=0.9, fr')).toBe('ko');
    expect(pickLocale('ms_MY')).toBe('ms');
    expect(pickLocale('ko;q=0, en')).toBe('en');
  });

  it('falls back to English for nothing or languages it does not speak', () => {
    expect(pickLocale(undefined)).toBe('en');
    expect(pickLocale('')).toBe('en');
    expect(pickLocale(['de-DE', 'ja'])).toBe('en');
    expect(pickLocale('*')).toBe('en');
  });

  it('knows its languages', () => {
    expect(isLocale('ko')).toBe(true);
    expect(isLocale('ko-KR')).toBe(false);
    expect(isLocale(undefined)).toBe(false);
  });
});
