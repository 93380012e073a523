import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  accessTokenIdParams,
  accessTokenInputSchema,
  accessTokenListSchema,
  createdAccessTokenSchema,
} from '../../../shared/schemas/access-tokens.ts';
import { currentUser, requireSession } from '../auth/session.ts';
import { issueToken, listOwnerTokens, revokeToken, tokenStreamKey } from './tokens.ts';

const sessionOnly = [{ sessionCookie: [] }];

export const tokensRoutes: FastifyPluginAsyncZod = async (app) => {
  const { kysely: db } = app.db;
  // A token that could make tokens would outlive its own revocation (a thief mints a fresh one
  // first); one that could list or revoke them would let a leaked script lock out the others.
  app.addHook('onRequest', requireSession);

  app.get(
    '/tokens',
    {
      schema: {
        summary: "The signed-in user's access tokens (never their secrets)",
        security: sessionOnly,
        response: { 200: accessTokenListSchema },
      },
    },
    async (request) => ({ tokens: await listOwnerTokens(db, currentUser(request).id) }),
  );

  app.post(
    '/tokens',
    {
      schema: {
        summary: 'Create an access token; its secret is in this answer and nowhere else',
        security: sessionOnly,
        body: accessTokenInputSchema,
        response: { 201: createdAccessTokenSchema },
      },
      // The answer holds the secret: it must not be kept for a retry. A retry makes a second token.
      config: { idempotency: false },
    },
    async (request, reply) => {
      const created = await issueToken(db, currentUser(request).id, request.body, Date.now());
      return reply.status(201).send(created);
    },
  );

  app.delete(
    '/tokens/:id',
    {
      schema: {
        summary: 'Revoke an access token at once',
        security: sessionOnly,
        params: accessTokenIdParams,
      },
    },
    async (request, reply) => {
      const ownerId = currentUser(request).id;
      await revokeToken(db, ownerId, request.params.id);
      app.feed.endSession(ownerId, tokenStreamKey(request.params.id));
      return reply.status(204).send();
    },
  );
};
