import { z } from 'zod/mini';
import { ratePattern, rateDecimals } from '../exchange.ts';
import { isCalendarDate } from '../dates.ts';
import { currencies } from '../money.ts';
import { currencyField, noControlCharacters } from './clients.ts';

/** The currencies a rate can be entered for: US dollars are the unit itself. */
export const rateCurrencies = currencies.filter((currency) => currency !== 'USD');

export const exchangeRateSchema = z.object({
  currency: z.enum(rateCurrencies as ['KRW', 'CAD', 'MYR'], 'Choose KRW, CAD or RM.'),
  usdPerUnit: z.string().check(
    z.trim(),
    z.regex(ratePattern, `Enter a positive number with at most ${rateDecimals} decimals.`),
    z.refine((text) => /[1-9]/.test(text), 'Enter a rate above 0.'),
  ),
  date: z.string().check(z.trim(), z.refine(isCalendarDate, 'Enter a date as YYYY-MM-DD.')),
});
export type ExchangeRate = z.infer<typeof exchangeRateSchema>;

export const preferencesSchema = z.object({
  disableBalanceOnAdd: z.boolean('Use true or false.'),
  disableBalanceOnEdit: z.boolean('Use true or false.'),
});
export type Preferences = z.infer<typeof preferencesSchema>;

export const defaultPreferences: Preferences = {
  disableBalanceOnAdd: false,
  disableBalanceOnEdit: false,
};

/** Like noControlCharacters, for text written on several lines: line breaks (and tabs) are fine. */
export const multilineText = z.refine<string>(
  (text) =>
    ![...text].some((character) => {
      const code = character.charCodeAt(0);
      return (
        (code < 0x20 && code !== 0x0a && code !== 0x09) ||
        code === 0x7f ||
        (code >= 0x202a && code <= 0x202e) ||
        (code >= 0x2066 && code <= 0x2069)
      );
    }),
  'Remove the control characters.',
);

export const businessNameMaxLength = 100;
export const businessAddressMaxLength = 300;
export const paymentDetailsMaxLength = 500;
export const taxIdMaxLength = 50;

const businessNameField = z
  .string('Enter text.')
  .check(
    z.trim(),
    noControlCharacters,
    z.maxLength(businessNameMaxLength, `Use at most ${businessNameMaxLength} characters.`),
  );

// Line breaks are how an address is written; other control characters are not.
const businessAddressField = z.string('Enter text.').check(
  z.overwrite((text) => text.replace(/\r\n?/g, '\n').trim()),
  multilineText,
  z.maxLength(businessAddressMaxLength, `Use at most ${businessAddressMaxLength} characters.`),
);

const paymentDetailsField = z.string('Enter text.').check(
  z.overwrite((text) => text.replace(/\r\n?/g, '\n').trim()),
  multilineText,
  z.maxLength(paymentDetailsMaxLength, `Use at most ${paymentDetailsMaxLength} characters.`),
);

/** A tax id as the owner writes it: "123-45-67890", "C 2584563202", one line. */
const taxIdField = z
  .string('Enter text.')
  .check(
    z.trim(),
    noControlCharacters,
    z.maxLength(taxIdMaxLength, `Use at most ${taxIdMaxLength} characters.`),
  );

/** The owner's business as statements show it; each may be left empty. */
export const businessSchema = z.object({
  name: businessNameField,
  address: businessAddressField,
  /**
   * How clients pay (a bank account, a payment link, any text), shown under a statement's amount
   * due. Left out (an export file or a script from before it existed), it stays as it is.
   */
  paymentDetails: z.optional(paymentDetailsField),
  /**
   * The business's tax id (a business registration number), printed on its statements. Left out
   * (an export file before version 6, an older script), it stays as it is.
   */
  taxId: z.optional(taxIdField),
  /**
   * The currency the business mostly works in: new clients start in it, and the dashboard's
   * totals are shown in it while there are none. Left out, it stays as it is.
   */
  mainCurrency: z.optional(currencyField),
});
export type Business = z.infer<typeof businessSchema>;

/** What GET /api/settings answers; `allowRegistration` only for the administrator. */
export const settingsSchema = z.object({
  preferences: preferencesSchema,
  allowRegistration: z.nullable(z.boolean()),
  rates: z.array(exchangeRateSchema),
  business: businessSchema,
});
export type Settings = z.infer<typeof settingsSchema>;

/**
 * PUT /api/settings: one section of the screen or all of it; a part left out stays as it is.
 * `allowRegistration` may only come from the administrator.
 */
export const settingsUpdateSchema = z.strictObject({
  preferences: z.optional(preferencesSchema),
  allowRegistration: z.optional(z.boolean('Use true or false.')),
  /** Left out: the business details stay as they are. */
  business: z.optional(businessSchema),
  rates: z.optional(
    z.array(exchangeRateSchema).check(
      z.maxLength(rateCurrencies.length, 'Give at most one rate per currency.'),
      z.refine(
        (rates) => new Set(rates.map((rate) => rate.currency)).size === rates.length,
        'Give at most one rate per currency.',
      ),
    ),
  ),
});
export type SettingsUpdate = z.infer<typeof settingsUpdateSchema>;

export const publicSettingsSchema = z.object({
  allowRegistration: z.boolean(),
  /** "Forgot password?" e-mails a reset link (a mail server and PUBLIC_URL are set up). */
  passwordResetByEmail: z.boolean(),
});
export type PublicSettings = z.infer<typeof publicSettingsSchema>;

/**
 * PUT /api/settings/setup: the first-run setup, done (its details kept) or skipped (nothing
 * changed). Either way it is not offered again, on any device. The language is kept apart, by
 * PUT /api/settings/language, the moment it is chosen.
 */
export const setupSchema = z
  .strictObject({
    outcome: z.enum(['done', 'skipped'], 'Choose done or skipped.'),
    businessName: z.optional(businessNameField),
    mainCurrency: z.optional(currencyField),
    paymentDetails: z.optional(paymentDetailsField),
    businessAddress: z.optional(businessAddressField),
    taxId: z.optional(taxIdField),
  })
  .check(
    z.superRefine((setup, context) => {
      const details = [
        'businessName',
        'mainCurrency',
        'paymentDetails',
        'businessAddress',
        'taxId',
      ] as const;
      if (setup.outcome === 'skipped') {
        for (const field of details)
          if (setup[field] !== undefined)
            context.addIssue({
              code: 'custom',
              path: [field],
              message: 'A skipped setup keeps no details; leave it out.',
            });
      } else if (setup.mainCurrency === undefined) {
        context.addIssue({ code: 'custom', path: ['mainCurrency'], message: 'Choose a currency.' });
      }
    }),
  );
export type Setup = z.infer<typeof setupSchema>;
