import { z } from 'zod/mini';

/**
 * What a member of a book may do (decision 044): an owner everything; a bookkeeper all clients
 * and money but not the members or the book itself; a collector only their own clients, and no
 * voids or settings; a viewer reads everything and writes nothing.
 */
export const bookRoles = ['owner', 'bookkeeper', 'collector', 'viewer'] as const;
export const bookRoleSchema = z.enum(bookRoles);
export type BookRole = z.infer<typeof bookRoleSchema>;

/**
 * A book as its member sees it in the switcher: its name (the business's, else its first owner's
 * e-mail), the member's role, and how many people keep it (a solo owner sees no word of roles).
 */
export const bookSummarySchema = z.object({
  id: z.string(),
  name: z.string(),
  role: bookRoleSchema,
  members: z.number(),
});
export type BookSummary = z.infer<typeof bookSummarySchema>;

export const booksSchema = z.object({
  current: z.nullable(bookSummarySchema),
  books: z.array(bookSummarySchema),
});
export type Books = z.infer<typeof booksSchema>;

