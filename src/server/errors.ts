import type { ErrorCode } from '../shared/schemas/errors.ts';
import type { Locale } from '../shared/locales.ts';
import { translate, type MessageValues, type Text } from './i18n.ts';

export type { ErrorCode };

export interface AppErrorData {
  status: number;
  code: ErrorCode;
  text: Text;
  fields?: Record<string, Text>;
  headers?: Record<string, string>;
}

/** A runtime value goes in `values`, so the English message stays a catalogue key. */
export class AppError extends Error {
  override name = 'AppError';
  readonly status: number;
  readonly code: ErrorCode;
  readonly fields: Record<string, string> | undefined;
  readonly headers: Record<string, string> | undefined;
  readonly #text: Text;
  readonly #fieldTexts: Record<string, Text> | undefined;

  constructor(
    status: number,
    code: ErrorCode,
    message: string,
    extra: {
      values?: MessageValues;
      fields?: Record<string, string | Text>;
      headers?: Record<string, string>;
    } = {},
  ) {
    super(translate('en', message, extra.values));
    this.status = status;
    this.code = code;
    this.#text = { text: message, ...(extra.values && { values: extra.values }) };
    this.#fieldTexts = extra.fields
      ? Object.fromEntries(
          Object.entries(extra.fields).map(([name, text]) => [
            name,
            typeof text === 'string' ? { text } : text,
          ]),
        )
      : undefined;
    this.fields = this.#fieldTexts && translatedFields(this.#fieldTexts, 'en');
    this.headers = extra.headers;
  }

  /** To cross from SQLite's writer thread, which runs commands. */
  toData(): AppErrorData {
    return {
      status: this.status,
      code: this.code,
      text: this.#text,
      ...(this.#fieldTexts && { fields: this.#fieldTexts }),
      ...(this.headers && { headers: this.headers }),
    };
  }

  static fromData({ status, code, text, fields, headers }: AppErrorData): AppError {
    return new AppError(status, code, text.text, {
      ...(text.values && { values: text.values }),
      ...(fields && { fields }),
      ...(headers && { headers }),
    });
  }

  in(locale: Locale): { message: string; fields: Record<string, string> | undefined } {
    return {
      message: translate(locale, this.#text.text, this.#text.values),
      fields: this.#fieldTexts && translatedFields(this.#fieldTexts, locale),
    };
  }
}

function translatedFields(texts: Record<string, Text>, locale: Locale) {
  return Object.fromEntries(
    Object.entries(texts).map(([name, { text, values }]) => [
      name,
      translate(locale, text, values),
    ]),
  );
}

export const notFound = (what = 'Not found') => new AppError(404, 'not_found', what);

export const fieldError = (field: string, message: string, status = 400) =>
  new AppError(status, 'validation', 'Invalid {names}', {
    values: { names: field },
    fields: { [field]: message },
  });
export const unauthenticated = () =>
  new AppError(401, 'unauthenticated', 'You are not signed in, or your session has ended');

/** The text a body's key gets when the body may not carry it (decision 043). */
export const unknownFieldMessage = 'This field is not one this request takes.';

interface SchemaIssue {
  path: readonly PropertyKey[];
  message: string;
  code?: string;
  keys?: readonly string[];
}

/**
 * A body's schema problems by field, the first for each: a key the body may not carry (a misspelt
 * field) is named itself, where the schema would name only the object holding it. `whole` names
 * a problem of the whole body; `unknownField` is the text an unknown key gets (translated by the
 * caller that answers in the request's language).
 */
export function issueFields(
  issues: readonly SchemaIssue[],
  { whole = 'body', unknownField = unknownFieldMessage } = {},
): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const issue of issues) {
    const path = issue.path.map(String).join('.');
    if (issue.code === 'unrecognized_keys' && issue.keys) {
      for (const key of issue.keys) fields[path ? `${path}.${key}` : key] ??= unknownField;
    } else {
      fields[path || whole] ??= issue.message;
    }
  }
  return fields;
}

/** 400 naming every field a body's schema refused. */
export function invalidBody(issues: readonly SchemaIssue[]): AppError {
  const fields = issueFields(issues);
  return new AppError(400, 'validation', 'Invalid {names}', {
    values: { names: Object.keys(fields).join(', ') },
    fields,
  });
}
