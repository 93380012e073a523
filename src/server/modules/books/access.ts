import type { FastifyRequest } from 'fastify';
import { mayDo, type BookAccess } from '../../../shared/book-access.ts';
import type { Route } from '../../../shared/api-routes.ts';
import { AppError } from '../../errors.ts';
import { clientNotFound } from '../clients/current-client.ts';
import { isCollectorsClient } from './books.queries.ts';
import { currentBook, type CurrentBook } from './current-book.ts';

function refused(book: CurrentBook, access: BookAccess): AppError {
  if (access === 'own')
    return new AppError(403, 'forbidden', 'Only an owner of this book can do this');
  if (book.role === 'viewer') {
    return new AppError(403, 'forbidden', 'A viewer of this book can read it but not change it');
  }
  return new AppError(
    403,
    'forbidden',
    'A collector works only with their own clients, and cannot do this',
  );
}

/**
 * The guard of a route of a book (decision 044): the member's role must allow what the route
 * asks; a collector reaches only the clients assigned to them, and any other client's id answers
 * as a missing one does, as a foreign book's does.
 */
export function bookAccessGuard(route: Route & { access: BookAccess }) {
  const clientScoped = route.path.startsWith('/api/clients/:id') || route.clientParam === true;
  return async (request: FastifyRequest): Promise<void> => {
    const book = currentBook(request);
    if (!mayDo(book.role, route.access)) throw refused(book, route.access);
    if (book.role !== 'collector' || !clientScoped) return;
    const { id } = request.params as { id?: string };
    const mine =
      id !== undefined &&
      (await isCollectorsClient(request.server.db.kysely, book.id, book.actor.userId, id));
    if (!mine) throw clientNotFound();
  };
}
