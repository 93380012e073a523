import { setupI18n, type Messages } from '@lingui/core';
import {
  defaultLocale,
  intlLocales,
  isLocale,
  pickLocale,
  type Locale,
} from '../../shared/locales.ts';

/**
 * The browser app's texts, through Lingui. Each feature keeps its texts in
 * src/client/locales/{language}/{area}.json (ICU MessageFormat, compiled at build time):
 * the files directly in a language's folder are the first page's, those under pages/ belong to
 * the pages that load on demand. English first-page texts ship with the first page; the rest of
 * a language comes in one chunk (src/client/locales/{language}.ts) when it is needed.
 */
export const i18n = setupI18n();

const englishFirstPage = import.meta.glob<Messages>('../locales/en/*.json', {
  eager: true,
  import: 'default',
});
for (const messages of Object.values(englishFirstPage)) i18n.load('en', messages);
i18n.activate(defaultLocale);

interface LanguageTexts {
  messages: Messages;
  sharedMessages: Record<string, string>;
}
const languageLoaders: Record<Locale, () => Promise<LanguageTexts>> = {
  en: () => import('../locales/en.ts'),
  ko: () => import('../locales/ko.ts'),
  ms: () => import('../locales/ms.ts'),
};

const loaded = new Map<Locale, Promise<void>>();
const sharedTexts = new Map<Locale, Record<string, string>>();

/** Fetches every text of a language once (its core, its pages, the shared messages). */
export function loadLocale(locale: Locale): Promise<void> {
  let loading = loaded.get(locale);
  if (!loading) {
    loading = (async () => {
      const { messages, sharedMessages } = await languageLoaders[locale]();
      i18n.load(locale, messages);
      sharedTexts.set(locale, sharedMessages);
    })();
    // A failed fetch (offline) may be tried again on the next call.
    loading.catch(() => loaded.delete(locale));
    loaded.set(locale, loading);
  }
  return loading;
}

const storageKey = 'balance.language';

/** The language chosen on this device, else the browser's first one Balance speaks. */
export function initialLocale(): Locale {
  try {
    const chosen = localStorage.getItem(storageKey);
    if (isLocale(chosen)) return chosen;
  } catch {
    // Storage refused (private mode): follow the browser.
  }
  return pickLocale(navigator.languages);
}

/** Loads a language, shows the app in it, and remembers it on this device. */
export async function changeLocale(locale: Locale, { remember = true } = {}): Promise<void> {
  await loadLocale(locale);
  if (remember) {
    try {
      localStorage.setItem(storageKey, locale);
    } catch {
      // Not remembered on this device; the account (when signed in) still keeps it.
    }
  }
  document.documentElement.lang = intlLocales[locale];
  if (i18n.locale !== locale) i18n.activate(locale);
}

export function currentLocale(): Locale {
  return isLocale(i18n.locale) ? i18n.locale : defaultLocale;
}

/**
 * A message of the shared schemas or the server, which are written in English, in the current
 * language. Checked field by field in the browser, a form shows the same words the server would.
 */
export function translateMessage(english: string): string {
  return sharedTexts.get(currentLocale())?.[english] ?? english;
}
