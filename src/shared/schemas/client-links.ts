import { z } from 'zod/mini';
import { locales } from '../locales.ts';

/** The expiries the owner can pick for a client link; null: it lasts until revoked. */
export const clientLinkExpiryDays = [7, 30, 90] as const;

/** POST /api/clients/:id/link: a new link, replacing the client's current one. */
export const clientLinkInputSchema = z.object({
  expiresInDays: z.optional(
    z.nullable(z.literal(clientLinkExpiryDays, 'Choose 7, 30 or 90 days, or null for no expiry.')),
  ),
});
export type ClientLinkInput = z.infer<typeof clientLinkInputSchema>;

/** The client's current link, without its secret (which only the answer that made it holds). */
const clientLinkSchema = z.object({
  createdAt: z.string(),
  expiresAt: z.nullable(z.string()),
  /** When the link was last opened, to the minute; null when never. */
  lastOpenedAt: z.nullable(z.string()),
  expired: z.boolean(),
});
export type ClientLink = z.infer<typeof clientLinkSchema>;

/** The language a client reads their link's page (and later their reminders) in. */
export const clientLanguageSchema = z.nullable(
  z.enum(locales, "Choose en, ko or ms, or null for the owner's language."),
);
export type ClientLanguage = z.infer<typeof clientLanguageSchema>;

/** GET /api/clients/:id/link */
export const clientLinkStateSchema = z.object({
  link: z.nullable(clientLinkSchema),
  /** The client's own language; null follows the owner's. */
  language: clientLanguageSchema,
});
export type ClientLinkState = z.infer<typeof clientLinkStateSchema>;

/** The answer that made a link: the only place its secret is ever shown. */
export const createdClientLinkSchema = z.object({
  link: clientLinkSchema,
  /** The page's path, `/c/<secret>`, to put after the server's address. */
  path: z.string(),
});
export type CreatedClientLink = z.infer<typeof createdClientLinkSchema>;

/** PUT /api/clients/:id/language, and its answer. */
export const clientLanguageUpdateSchema = z.object({ language: clientLanguageSchema });

export const clientLinkPathPrefix = '/c/';
