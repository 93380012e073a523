/** The languages Balance speaks. English is the default and holds the specification's texts. */
export const locales = ['en', 'ko', 'ms'] as const;
export type Locale = (typeof locales)[number];
export const defaultLocale: Locale = 'en';

/** The locale each language formats numbers, money and dates with. */
export const intlLocales: Record<Locale, string> = { en: 'en-US', ko: 'ko-KR', ms: 'ms-MY' };

/** Each language's name in itself, as a language menu lists it. */
export const localeNames: Record<Locale, string> = {
  en: 'English',
  ko: '한국어',
  ms: 'Bahasa Melayu',
};

export function isLocale(value: unknown): value is Locale {
  return typeof value === 'string' && (locales as readonly string[]).includes(value);
}

/** The language of a tag such as "ko-KR", "ms_MY" or "EN", if Balance speaks it. */
function localeOfTag(tag: string): Locale | null {
  const language = tag.trim().toLowerCase().split(/[-_]/)[0];
  return isLocale(language) ? language : null;
}

/**
 * The first language Balance speaks among the user's preferences: an Accept-Language header
 * ("ko-KR,ko;q=0.9,en;q=0.8", weights honoured) or a browser's list (navigator.languages, in
 * order). English when none is spoken.
 */
export function pickLocale(preferences: string | readonly string[] | null | undefined): Locale {
  if (!preferences) return defaultLocale;
  const ranked =
    typeof preferences === 'string'
      ? preferences
          .split(',')
          .map((part, index) => {
            const [tag = '', ...parameters] = part.split(';');
            const q = parameters.map((p) => /^\s*q=([\d.]+)\s*$/.exec(p)?.[1]).find(Boolean);
            const weight = q === undefined ? 1 : Number(q);
            return { tag, weight: Number.isFinite(weight) ? weight : 0, index };
          })
          .filter((entry) => entry.weight > 0)
          .sort((a, b) => b.weight - a.weight || a.index - b.index)
          .map((entry) => entry.tag)
      : preferences;
  for (const tag of ranked) {
    const locale = localeOfTag(tag);
    if (locale) return locale;
  }
  return defaultLocale;
}
