import { z } from 'zod/mini';
import { emailField, newPasswordField } from './auth.ts';
import { bookRoleSchema } from './books.ts';
import { noControlCharacters } from './clients.ts';
import { historyEntrySchema } from './events.ts';

const idSchema = z.string().check(z.regex(/^[\w-]{1,64}$/));

/** At most this many clients named for a collector in one request. */
export const collectorClientsMax = 1000;

/** How long an invitation's link works (issue 58: seven days). */
export const bookInvitationValidity = 7 * 24 * 60 * 60 * 1000;

export const switchBookBodySchema = z.strictObject({ bookId: idSchema });

export const newBookBodySchema = z.strictObject({
  name: z.string().check(
    z.trim(),
    z.minLength(1, 'Enter a name.'),
    // PostgreSQL refuses a NUL in text: found by the fuzz test as a 500 on POST /api/books.
    noControlCharacters,
    z.maxLength(120, 'Use at most 120 characters.'),
  ),
});

export const bookMemberSchema = z.object({
  userId: z.string(),
  email: z.string(),
  role: bookRoleSchema,
  /** A collector's clients; empty for every other role. */
  clientIds: z.array(z.string()),
  addedAt: z.string(),
  isYou: z.boolean(),
});
export type BookMember = z.infer<typeof bookMemberSchema>;

export const bookInvitationSchema = z.object({
  id: z.string(),
  email: z.string(),
  role: bookRoleSchema,
  clientIds: z.array(z.string()),
  createdAt: z.string(),
  expiresAt: z.string(),
  status: z.enum(['pending', 'accepted', 'revoked', 'expired']),
});
export type BookInvitation = z.infer<typeof bookInvitationSchema>;

export const bookMembersSchema = z.object({
  members: z.array(bookMemberSchema),
  invitations: z.array(bookInvitationSchema),
});
export type BookMembers = z.infer<typeof bookMembersSchema>;

const clientIdsField = z
  .array(idSchema)
  .check(z.maxLength(collectorClientsMax, `Choose at most ${collectorClientsMax} clients.`));

export const inviteBodySchema = z.strictObject({
  email: emailField,
  role: bookRoleSchema,
  clientIds: z.optional(clientIdsField),
});

/** What the owner gets back: the link, always, to copy; and whether it was also mailed. */
export const invitationCreatedSchema = z.object({
  invitation: bookInvitationSchema,
  path: z.string(),
  mailed: z.boolean(),
});

export const memberBodySchema = z.strictObject({
  role: bookRoleSchema,
  clientIds: z.optional(clientIdsField),
});

export const memberParamsSchema = z.object({ userId: idSchema });
export const invitationParamsSchema = z.object({ id: idSchema });
export const invitationTokenParamsSchema = z.object({
  token: z.string().check(z.regex(/^[\w-]{43}$/)),
});

/** What the invitation's page shows before it is accepted. */
export const invitationViewSchema = z.object({
  bookName: z.string(),
  email: z.string(),
  role: bookRoleSchema,
  invitedBy: z.nullable(z.string()),
  expiresAt: z.string(),
  /** An account with this e-mail exists: sign in to accept; else choose a password. */
  hasAccount: z.boolean(),
});
export type InvitationView = z.infer<typeof invitationViewSchema>;

export const acceptInvitationBodySchema = z.strictObject({
  /** Only to create the account; a signed-in person accepts with none. */
  password: z.optional(newPasswordField),
});

const day = z.string().check(z.regex(/^\d{4}-\d{2}-\d{2}$/, 'Use a date as YYYY-MM-DD.'));

/** The day the book is closed up to (issue 59): null when nothing is closed. */
export const lockDateSchema = z.object({ lockDate: z.nullable(z.string()) });
export const lockDateBodySchema = z.strictObject({ lockDate: z.nullable(day) });

export const activityQuerySchema = z.object({
  /** One person's acts only: their user id. */
  person: z.optional(idSchema),
  /** The page after this cursor (the last event's id of the page before). */
  before: z.optional(z.string().check(z.regex(/^\d{1,15}$/, 'is not a valid cursor'))),
});

export const activitySchema = z.object({
  events: z.array(
    z.object({
      ...historyEntrySchema.shape,
      clientId: z.nullable(z.string()),
      actorId: z.nullable(z.string()),
    }),
  ),
  nextCursor: z.nullable(z.string()),
});
export type Activity = z.infer<typeof activitySchema>;
