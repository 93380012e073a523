import { setupI18n, type I18n } from '@lingui/core';
import { compileMessage } from '@lingui/message-utils/compileMessage';
import { z } from 'zod/mini';
import { intlLocales, locales, pickLocale, type Locale } from '../shared/locales.ts';
import ko from '../shared/messages/ko.json' with { type: 'json' };
import ms from '../shared/messages/ms.json' with { type: 'json' };

/**
 * What a message fills in: `{ seconds: 30 }` for "Try again in {seconds} seconds.". A value may
 * itself be a message (translated first), or a list of them (joined with spaces).
 */
export type MessageValues = Record<string, string | number | Text | Text[]>;

/** A message written in English with the values it fills in, translated when it is shown. */
export interface Text {
  text: string;
  values?: MessageValues;
}

/**
 * The server's messages are written in English in the code, and src/shared/messages/{ko,ms}.json
 * translate them keyed by that exact English text (the browser reads the same files). Values
 * are ICU MessageFormat, so a runtime value is filled in after translating.
 */
const catalogues: Record<Locale, Record<string, string>> = {
  // English says each message as it is written (its placeholders filled in).
  en: Object.fromEntries(Object.keys(ko).map((english) => [english, english])),
  ko,
  ms,
};

const instances = new Map<Locale, I18n>(
  locales.map((locale) => {
    const instance = setupI18n();
    // English, and a text a language lacks, are the key itself, compiled when first met.
    instance.setMessagesCompiler(compileMessage);
    instance.load(
      locale,
      Object.fromEntries(
        Object.entries(catalogues[locale]).map(([english, text]) => [
          english,
          compileMessage(text),
        ]),
      ),
    );
    instance.activate(locale, [intlLocales[locale]]);
    return [locale, instance];
  }),
);

/** An English message in a language, its values filled in. */
export function translate(locale: Locale, english: string, values?: MessageValues): string {
  // A text from elsewhere (a mail server's refusal) is no catalogue message: shown as it is.
  if (!values && !(english in catalogues[locale])) return english;
  const filled =
    values &&
    Object.fromEntries(
      Object.entries(values).map(([name, value]) => [name, translateValue(locale, value)]),
    );
  return instances.get(locale)!._(english, filled);
}

function translateValue(locale: Locale, value: MessageValues[string]): string | number {
  if (Array.isArray(value)) return value.map((text) => translateValue(locale, text)).join(' ');
  if (typeof value === 'object') return translate(locale, value.text, value.values);
  return value;
}

/** Whether a language has its own text for an English message. */
export function isTranslated(locale: Locale, english: string): boolean {
  return locale === 'en' || english in catalogues[locale];
}

/** The language a request asks for (Accept-Language), English when it names none we speak. */
export function requestLocale(request: {
  headers: Record<string, string | string[] | undefined>;
}): Locale {
  const header = request.headers['accept-language'];
  return pickLocale(Array.isArray(header) ? header.join(',') : header);
}

const zodLocales = { ko: z.locales.ko, ms: z.locales.ms } as const;

/**
 * A zod issue in a language: its schema's own message through the catalogue, else (a check
 * that names no message, such as a missing field's type) zod's own text in that language.
 */
export function translateIssue(
  locale: Locale,
  issue: { keyword: string; message?: string; params?: Record<string, unknown> },
  fallback: string,
): string {
  const english = issue.message ?? fallback;
  if (locale === 'en' || isTranslated(locale, english)) return translate(locale, english);
  const zodText = zodLocales[locale]().localeError({
    ...issue.params,
    code: issue.keyword,
  } as never);
  const text = typeof zodText === 'string' ? zodText : zodText?.message;
  return text ?? english;
}
