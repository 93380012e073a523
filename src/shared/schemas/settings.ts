import { z } from 'zod/mini';
import { ratePattern, rateDecimals } from '../exchange.ts';
import { isCalendarDate } from '../dates.ts';
import { currencies } from '../money.ts';

/** The currencies a rate can be entered for: US dollars are the unit itself. */
export const rateCurrencies = currencies.filter((currency) => currency !== 'USD');

export const exchangeRateSchema = z.object({
  currency: z.enum(rateCurrencies as ['KRW', 'CAD', 'MYR'], 'choose KRW, CAD or RM'),
  usdPerUnit: z.string().check(
    z.trim(),
    z.regex(ratePattern, `enter a positive number with at most ${rateDecimals} decimals`),
    z.refine((text) => /[1-9]/.test(text), 'must be above 0'),
  ),
  date: z.string().check(z.trim(), z.refine(isCalendarDate, 'enter a date as YYYY-MM-DD')),
});
export type ExchangeRate = z.infer<typeof exchangeRateSchema>;

export const preferencesSchema = z.object({
  disableBalanceOnAdd: z.boolean('must be true or false'),
  disableBalanceOnEdit: z.boolean('must be true or false'),
});
export type Preferences = z.infer<typeof preferencesSchema>;

export const defaultPreferences: Preferences = {
  disableBalanceOnAdd: false,
  disableBalanceOnEdit: false,
};

/** What GET /api/settings answers; `allowRegistration` only for the administrator. */
export const settingsSchema = z.object({
  preferences: preferencesSchema,
  allowRegistration: z.nullable(z.boolean()),
  rates: z.array(exchangeRateSchema),
});
export type Settings = z.infer<typeof settingsSchema>;

/** PUT /api/settings: the whole screen at once; `allowRegistration` may only come from the administrator. */
export const settingsUpdateSchema = z.object({
  preferences: preferencesSchema,
  allowRegistration: z.optional(z.boolean('must be true or false')),
  rates: z.array(exchangeRateSchema).check(
    z.maxLength(rateCurrencies.length, 'one rate per currency at most'),
    z.refine(
      (rates) => new Set(rates.map((rate) => rate.currency)).size === rates.length,
      'one rate per currency at most',
    ),
  ),
});
export type SettingsUpdate = z.infer<typeof settingsUpdateSchema>;

export const publicSettingsSchema = z.object({ allowRegistration: z.boolean() });
export type PublicSettings = z.infer<typeof publicSettingsSchema>;
