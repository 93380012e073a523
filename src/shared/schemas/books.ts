import { z } from 'zod/mini';

/**
 * What a member of a book may do (decision 044): an owner everything; a bookkeeper all clients
 * and money but not the members or the book itself; a collector only their own clients, and no
 * voids or settings; a viewer reads everything and writes nothing.
 */
export const bookRoles = ['owner', 'bookkeeper', 'collector', 'viewer'] as const;
export const bookRoleSchema = z.enum(bookRoles);
export type BookRole = z.infer<typeof bookRoleSchema>;
