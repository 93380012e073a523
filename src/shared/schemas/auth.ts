import { z } from 'zod/mini';
import { accountLanguageSchema } from './language.ts';
import { firstRunSchema } from './first-run.ts';
import { bookSummarySchema } from './books.ts';

/**
 * One @ between a dotted local part and a dotted domain of at least two labels. Letters,
 * digits and the characters real addresses use (. _ % + - ') are accepted (DECISIONS.md row 9).
 */
const emailPattern =
  /^[A-Za-z0-9_%+'-]+(?:\.[A-Za-z0-9_%+'-]+)*@[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?)+$/;

const emailMaxLength = 254;

export const emailField = z
  .string()
  .check(
    z.trim(),
    z.minLength(1, 'email required'),
    z.maxLength(emailMaxLength, `Use at most ${emailMaxLength} characters.`),
    z.regex(emailPattern, 'enter valid email'),
  );

export const passwordMinLength = 8;
export const passwordMaxLength = 256;

/** Characters as a person counts them: code points, so "é" or "🙂" is one. */
export const passwordLength = (password: string) => [...password].length;

const passwordRequired = z.string().check(z.minLength(1, 'Enter a password.'));

export const loginBodySchema = z.strictObject({
  email: emailField,
  password: passwordRequired.check(
    z.refine(
      (value) => passwordLength(value) <= passwordMaxLength,
      `Use at most ${passwordMaxLength} characters.`,
    ),
  ),
});

/** A new password: a new account's, or a reset's. */
export const newPasswordField = passwordRequired.check(
  z.refine(
    (value) => passwordLength(value) >= passwordMinLength,
    `Use at least ${passwordMinLength} characters.`,
  ),
  z.refine(
    (value) => passwordLength(value) <= passwordMaxLength,
    `Use at most ${passwordMaxLength} characters.`,
  ),
);

export const joinBodySchema = z.strictObject({
  email: emailField,
  password: newPasswordField,
  /** An invitation's token: lets its one e-mail join while registration is closed. */
  invite: z.optional(z.string().check(z.regex(/^[\w-]{43}$/, 'is not a valid invitation'))),
});

export type LoginBody = z.infer<typeof loginBodySchema>;
export type JoinBody = z.infer<typeof joinBodySchema>;

/** Asks for a password reset link by e-mail; the answer is the same whoever the e-mail belongs to. */
export const forgotPasswordBodySchema = z.strictObject({ email: emailField });
export type ForgotPasswordBody = z.infer<typeof forgotPasswordBodySchema>;
export const forgotPasswordResponseSchema = z.object({ message: z.string() });

export const sessionUserSchema = z.object({
  id: z.string(),
  email: z.string(),
  isAdmin: z.boolean(),
});

export type SessionUser = z.infer<typeof sessionUserSchema>;

export const sessionResponseSchema = z.object({
  user: z.nullable(sessionUserSchema),
  /** The language kept with the account (null: follow the browser); absent when signed out. */
  language: z.optional(accountLanguageSchema),
  /** The main currency and whether the first-run setup awaits; absent when signed out. */
  firstRun: z.optional(firstRunSchema),
  /** The book the session acts in (null: the person belongs to none) and all of theirs. */
  book: z.optional(z.nullable(bookSummarySchema)),
  books: z.optional(z.array(bookSummarySchema)),
});
export type SessionResponse = z.infer<typeof sessionResponseSchema>;

/**
 * What login and join answer: the user, (login) the language kept with the account, and where
 * the owner stands with the first run.
 */
export const userResponseSchema = z.object({
  user: sessionUserSchema,
  language: z.optional(accountLanguageSchema),
  firstRun: z.optional(firstRunSchema),
  book: z.optional(z.nullable(bookSummarySchema)),
  books: z.optional(z.array(bookSummarySchema)),
});
export type UserResponse = z.infer<typeof userResponseSchema>;
