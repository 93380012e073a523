import { z } from 'zod/mini';
import { locales } from '../locales.ts';

/** The language kept with the account: one Balance speaks, or null to follow each browser. */
export const accountLanguageSchema = z.nullable(
  z.enum(locales, 'Choose en, ko or ms, or null to follow the browser.'),
);

/** PUT /api/settings/language, and its answer. */
export const languageUpdateSchema = z.strictObject({ language: accountLanguageSchema });
