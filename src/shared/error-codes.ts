// Plain lists, without zod, so that the browser's first page can use them without loading a
// schema library; src/shared/schemas/errors.ts builds the error answer's schema on them.

export const errorCodes = [
  'validation',
  'unauthenticated',
  'not_found',
  'conflict',
  /** A write dated on or before the day the book is closed up to (issue 59). */
  'period_closed',
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
