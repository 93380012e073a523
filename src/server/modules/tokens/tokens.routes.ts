import type { FastifyPluginAsync } from 'fastify';
import { apiRoutes } from '../../../shared/api-routes.ts';
import { handle } from '../../described-route.ts';
import { currentUser, requireSession } from '../auth/session.ts';
import { currentBook } from '../books/current-book.ts';
import { issueToken, listOwnerTokens, revokeToken, tokenStreamKey } from './tokens.ts';

const sessionOnly = [{ sessionCookie: [] }];

export const tokensRoutes: FastifyPluginAsync = async (app) => {
  const { kysely: db } = app.db;
  // A token that could make tokens would outlive its own revocation (a thief mints a fresh one
  // first); one that could list or revoke them would let a leaked script lock out the others.
  app.addHook('onRequest', requireSession);

  handle(
    app,
    apiRoutes.tokens,
    { summary: "The signed-in user's access tokens (never their secrets)", security: sessionOnly },
    async (request) => ({ tokens: await listOwnerTokens(db, currentUser(request).id) }),
  );

  handle(
    app,
    apiRoutes.createToken,
    {
      summary: 'Create an access token; its secret is in this answer and nowhere else',
      security: sessionOnly,
      // The answer holds the secret: it must not be kept for a retry. A retry makes a second token.
      config: { idempotency: false },
    },
    async (request, reply) => {
      const book = currentBook(request);
      const created = await issueToken(
        db,
        { userId: book.actor.userId, bookId: book.id },
        request.body,
        Date.now(),
      );
      return reply.status(201).send(created);
    },
  );

  handle(
    app,
    apiRoutes.revokeToken,
    { summary: 'Revoke an access token at once', security: sessionOnly },
    async (request, reply) => {
      const bookId = await revokeToken(db, currentUser(request).id, request.params.id);
      app.feed.endSession(bookId, tokenStreamKey(request.params.id));
      return reply.status(204).send();
    },
  );
};
