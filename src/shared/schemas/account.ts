import { z } from 'zod/mini';
import {
  emailField,
  passwordLength,
  passwordMaxLength,
  passwordMinLength,
  sessionUserSchema,
} from './auth.ts';

/** A password being checked: required, and no longer than any password can be. */
const currentPassword = z.string().check(
  z.minLength(1, 'password required'),
  z.refine(
    (value) => passwordLength(value) <= passwordMaxLength,
    `must be at most ${passwordMaxLength} characters`,
  ),
);

/** A password being chosen: the same rules as at join. */
export const newPasswordField = z.string().check(
  z.minLength(1, 'password required'),
  z.refine(
    (value) => passwordLength(value) >= passwordMinLength,
    `must be at least ${passwordMinLength} characters`,
  ),
  z.refine(
    (value) => passwordLength(value) <= passwordMaxLength,
    `must be at most ${passwordMaxLength} characters`,
  ),
);

export const changePasswordBodySchema = z.strictObject({
  currentPassword,
  newPassword: newPasswordField,
});
export type ChangePasswordBody = z.infer<typeof changePasswordBodySchema>;

export const changeEmailBodySchema = z.strictObject({
  email: emailField,
  password: currentPassword,
});
export type ChangeEmailBody = z.infer<typeof changeEmailBodySchema>;

export const deleteAccountBodySchema = z.strictObject({ password: currentPassword });
export type DeleteAccountBody = z.infer<typeof deleteAccountBodySchema>;

const accountSessionSchema = z.object({
  /** Not the cookie's token nor its stored hash: an id derived from the hash, safe to show. */
  id: z.string(),
  /** The device in plain words, e.g. "Chrome on Linux". */
  device: z.string(),
  createdAt: z.string(),
  lastSeenAt: z.string(),
  current: z.boolean(),
});

export const accountSessionsSchema = z.object({ sessions: z.array(accountSessionSchema) });
export type AccountSessions = z.infer<typeof accountSessionsSchema>;

export const sessionIdParamsSchema = z.object({ id: z.string().check(z.regex(/^[\w-]{1,64}$/)) });

/** Tokens of one-time links are 43 base64url characters. */
const linkToken = z.string().check(z.regex(/^[\w-]{43}$/, 'is not a valid link'));

export const passwordResetBodySchema = z.strictObject({
  token: linkToken,
  password: newPasswordField,
});
export type PasswordResetBody = z.infer<typeof passwordResetBodySchema>;

const adminUserSchema = z.object({
  id: z.string(),
  email: z.string(),
  isAdmin: z.boolean(),
  disabled: z.boolean(),
  createdAt: z.string(),
  lastSeenAt: z.nullable(z.string()),
  clients: z.number(),
});
export type AdminUser = z.infer<typeof adminUserSchema>;

export const adminUsersSchema = z.object({ users: z.array(adminUserSchema) });

export const userIdParamsSchema = z.object({ id: z.string().check(z.regex(/^[\w-]{1,64}$/)) });

/** A one-time link: the path to open (the browser adds its own origin) and when it ends. */
export const oneTimeLinkSchema = z.object({ path: z.string(), expiresAt: z.string() });
export type OneTimeLink = z.infer<typeof oneTimeLinkSchema>;

export const invitationBodySchema = z.strictObject({ email: emailField });
export type InvitationBody = z.infer<typeof invitationBodySchema>;

export const passwordResetValidity = 24 * 60 * 60_000;
export const invitationValidity = 7 * 24 * 60 * 60_000;

/** POST /api/account/sessions/end-others: how many sessions ended. */
export const endedSessionsSchema = z.object({ ended: z.number() });

/** POST /api/account/email: the user with the new address. */
export const changedEmailSchema = z.object({ user: sessionUserSchema });
