import { setupI18n, type I18n } from '@lingui/core';
import { compileMessage } from '@lingui/message-utils/compileMessage';
import { z } from 'zod/mini';
import { intlLocales, locales, pickLocale, type Locale } from '../shared/locales.ts';
import ko from '../shared/messages/ko.json' with { type: 'json' };
import ms from '../shared/messages/ms.json' with { type: 'json' };

export type MessageValues = Record<string, string | number | Text | Text[]>;

export interface Text {
  text: string;
  values?: MessageValues;
}

// Keyed by the English text, in the same files the browser reads (decision 012).
const catalogues: Record<Locale, Record<string, string>> = {
  en: Object.fromEntries(Object.keys(ko).map((english) => [english, english])),
  ko,
  ms,
};

const instances = new Map<Locale, I18n>(
  locales.map((locale) => {
    const instance = setupI18n();
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

function isTranslated(locale: Locale, english: string): boolean {
  return locale === 'en' || english in catalogues[locale];
}

export function requestLocale(request: {
  headers: Record<string, string | string[] | undefined>;
}): Locale {
  const header = request.headers['accept-language'];
  return pickLocale(Array.isArray(header) ? header.join(',') : header);
}

const zodLocales = { ko: z.locales.ko, ms: z.locales.ms } as const;

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
