import type { BookRole } from './schemas/books.ts';

/**
 * What a route of a book asks of the member calling it (decision 044), checked on the server for
 * every route that names one (src/shared/api-routes.ts) and used by the screens to hide what a
 * role cannot do:
 * - `read`: any member; a collector sees only their own clients.
 * - `readBook`: what spans the whole book (its totals, ageing, exports): not a collector.
 * - `collect`: what a collector may do to their own clients (a payment, a statement sent).
 * - `keep`: all clients and money: a bookkeeper or an owner.
 * - `own`: the members, the book itself, a restore over it: an owner.
 */
export type BookAccess = 'read' | 'readBook' | 'collect' | 'keep' | 'own';

const rolesFor: Record<BookAccess, readonly BookRole[]> = {
  read: ['owner', 'bookkeeper', 'collector', 'viewer'],
  readBook: ['owner', 'bookkeeper', 'viewer'],
  collect: ['owner', 'bookkeeper', 'collector'],
  keep: ['owner', 'bookkeeper'],
  own: ['owner'],
};

export function mayDo(role: BookRole, access: BookAccess): boolean {
  return rolesFor[access].includes(role);
}
