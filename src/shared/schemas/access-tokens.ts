import { z } from 'zod/mini';
import { noControlCharacters } from './clients.ts';

/** What a token may do: read only (GET and HEAD), or everything its owner may do. */
const tokenAccesses = ['read', 'read-write'] as const;

export const tokenNameMaxLength = 100;
/** Enough for every script and device of one owner; a cap keeps a leaked session from minting without end. */
export const tokensPerOwner = 50;

/** A token's secret: a recognisable prefix (so secret scanners and people know it) and 256 random bits. */
export const tokenSecretPrefix = 'bal_';
export const tokenSecretPattern = /^bal_[\w-]{43}$/;

const tokenNameField = z
  .string()
  .check(
    z.trim(),
    z.minLength(1, 'name required'),
    noControlCharacters,
    z.maxLength(tokenNameMaxLength, `Use at most ${tokenNameMaxLength} characters.`),
  );
const tokenAccessField = z.enum(tokenAccesses, 'Choose read or read-write.');

export const accessTokenInputSchema = z.strictObject({
  name: tokenNameField,
  access: tokenAccessField,
  /** The moment the token stops working (ISO 8601 with a time zone); null or absent: never. */
  expiresAt: z.optional(
    z.nullable(z.iso.datetime({ offset: true, error: 'Enter a date and time in ISO 8601 form.' })),
  ),
});
export type AccessTokenInput = z.input<typeof accessTokenInputSchema>;

/** The new-token form as typed: the expiry is a day of the owner's calendar, empty for never. */
export const accessTokenFormSchema = z.object({
  name: tokenNameField,
  access: tokenAccessField,
  expiresOn: z.string(),
});
export type AccessTokenForm = z.input<typeof accessTokenFormSchema>;

const accessTokenSchema = z.object({
  id: z.string(),
  name: z.string(),
  access: z.enum(tokenAccesses),
  createdAt: z.string(),
  /** Updated at most once a minute. */
  lastUsedAt: z.nullable(z.string()),
  expiresAt: z.nullable(z.string()),
});
export type AccessToken = z.infer<typeof accessTokenSchema>;

export const accessTokenListSchema = z.object({ tokens: z.array(accessTokenSchema) });

/** The answer to a new token: the only time its secret is ever shown. */
export const createdAccessTokenSchema = z.object({
  token: accessTokenSchema,
  secret: z.string(),
});
export type CreatedAccessToken = z.infer<typeof createdAccessTokenSchema>;

export const accessTokenIdParams = z.object({ id: z.string() });
