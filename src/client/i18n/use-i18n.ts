import { useMemo, useSyncExternalStore } from 'react';
import { formatMoney, type Currency } from '../../shared/money.ts';
import { intlLocales, type Locale } from '../../shared/locales.ts';
import { currentLocale, i18n, translateMessage } from './i18n.ts';

type Values = Record<string, unknown>;

/** Texts and formats of the current language for a text outside React (a flash, a title). */
export function formattersFor(locale: Locale) {
  const intl = intlLocales[locale];
  const day = new Intl.DateTimeFormat(intl, { dateStyle: 'medium', timeZone: 'UTC' });
  const moment = new Intl.DateTimeFormat(intl, { dateStyle: 'medium', timeStyle: 'short' });
  const number = new Intl.NumberFormat(intl);
  return {
    locale,
    /** The BCP 47 tag (en-US, ko-KR, ms-MY) for an Intl formatter of one's own. */
    intlLocale: intl,
    money: (minor: number | bigint, currency: Currency) => formatMoney(minor, currency, intl),
    /** A calendar day written YYYY-MM-DD, as the language writes days ("Nov 23, 2026"). */
    day: (isoDay: string) => day.format(new Date(`${isoDay}T00:00:00Z`)),
    /** A moment (ISO text or milliseconds) in this device's time zone, with the time. */
    moment: (at: string | number | Date) => moment.format(new Date(at)),
    number: (value: number | bigint) => number.format(value),
  };
}

// Counted before any component listens, so a component told of a change reads the new count.
let changes = 0;
i18n.on('change', () => {
  changes += 1;
});
const onTextsChange = (listener: () => void) => i18n.on('change', listener);
const textsVersion = () => changes;

/**
 * The current language's texts and formats, read straight from the one Lingui instance (no
 * provider: Lingui's React binding stays off the first page; only a page using its <Trans>
 * wraps itself in Lingui's provider). `t(key, values)` looks a key up in the catalogues
 * (src/client/locales); `message(text)` shows a message of the shared schemas or the server.
 * Components using it show again in a new language when the user changes it.
 */
export function useI18n() {
  const version = useSyncExternalStore(onTextsChange, textsVersion);
  const locale = currentLocale();
  return useMemo(
    () => ({
      t: (key: string, values?: Values) => i18n._(key, values),
      message: translateMessage,
      format: formattersFor(locale),
      locale,
    }),
    // A new version: another language, or a page's texts arrived while the language stayed.
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [version, locale],
  );
}
