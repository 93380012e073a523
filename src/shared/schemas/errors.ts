import { z } from 'zod/mini';

export const errorCodes = [
  'validation',
  'unauthenticated',
  'not_found',
  'conflict',
  'cross_site',
  'rate_limited',
  'invalid_credentials',
  'email_taken',
  'registration_closed',
  'account_disabled',
  'invalid_link',
  'forbidden',
  'payload_too_large',
  'unavailable',
  'disk_full',
  'mail_failed',
  'mail_not_configured',
  'internal',
] as const;

export type ErrorCode = (typeof errorCodes)[number];

/** Every error the API sends has this shape; `fields` names each invalid input. */
export const errorBodySchema = z.object({
  error: z.object({
    code: z.enum(errorCodes),
    message: z.string(),
    fields: z.optional(z.record(z.string(), z.string())),
  }),
});

export type ErrorBody = z.infer<typeof errorBodySchema>;
