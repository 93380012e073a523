import { z } from 'zod/mini';
import { locales } from '../locales.ts';

/** The expiries the owner can pick for a client link; null: it lasts until revoked. */
export const clientLinkExpiryDays = [7, 30, 90] as const;

/** POST /api/clients/:id/link: a new link, replacing the client's current one. */
export const clientLinkInputSchema = z.strictObject({
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
export const clientLanguageUpdateSchema = z.strictObject({ language: clientLanguageSchema });

/** Who made a link: a session (its device), an API token (its name), a reminder, or unknown. */
const linkMakerSchema = z.object({
  kind: z.enum(['session', 'token', 'reminder', 'unknown']),
  /** The session's device in plain words, or the token's name; null for the others. */
  device: z.nullable(z.string()),
  /** When the session signed in, or the token was made. */
  startedAt: z.nullable(z.string()),
  /** Made by the session asking. */
  current: z.boolean(),
  /** The session has ended, or the token was revoked, since. */
  ended: z.boolean(),
});
export type LinkMaker = z.infer<typeof linkMakerSchema>;

/** A live link of the owner's, with the credential that made it (never its secret). */
const accountClientLinkSchema = z.object({
  id: z.string(),
  clientId: z.string(),
  clientName: z.string(),
  createdAt: z.string(),
  expiresAt: z.nullable(z.string()),
  lastOpenedAt: z.nullable(z.string()),
  madeBy: linkMakerSchema,
});
export type AccountClientLink = z.infer<typeof accountClientLinkSchema>;

/** How far back the account page looks for links a stolen session may have made. */
export const recentLinkDays = 30;

/** GET /api/account/client-links: the live links made in the last `recentLinkDays`, newest first. */
export const accountClientLinksSchema = z.object({ links: z.array(accountClientLinkSchema) });
export type AccountClientLinks = z.infer<typeof accountClientLinksSchema>;

const maxLinksRevokedAtOnce = 1000;

/** POST /api/account/client-links/revoke */
export const revokeClientLinksBodySchema = z.strictObject({
  ids: z
    .array(z.string().check(z.regex(/^[\w-]{22}$/, 'is not a link id')))
    .check(
      z.minLength(1, 'Choose at least one link.'),
      z.maxLength(maxLinksRevokedAtOnce, 'Choose at most 1000 links.'),
    ),
});
export type RevokeClientLinksBody = z.infer<typeof revokeClientLinksBodySchema>;

export const revokedClientLinksSchema = z.object({ revoked: z.number() });
