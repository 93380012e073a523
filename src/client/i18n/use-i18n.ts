import { useMemo } from 'react';
import { useLingui } from '@lingui/react';
import { formatMoney, type Currency } from '../../shared/money.ts';
import { defaultLocale, intlLocales, isLocale, type Locale } from '../../shared/locales.ts';
import { translateMessage } from './i18n.ts';

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

/**
 * The current language's texts and formats. `t(key, values)` looks a key up in the catalogues
 * (src/client/locales); `message(text)` shows a message of the shared schemas or the server.
 * Components using it show again in a new language when the user changes it.
 */
export function useI18n() {
  const { i18n } = useLingui();
  const locale: Locale = isLocale(i18n.locale) ? i18n.locale : defaultLocale;
  return useMemo(
    () => ({
      t: (key: string, values?: Values) => i18n._(key, values),
      message: translateMessage,
      format: formattersFor(locale),
      locale,
    }),
    // The catalogue may grow (a page's texts arrive) while the language stays.
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [i18n, locale, i18n.messages],
  );
}
