import { currentBook } from '../books/current-book.ts';
import { randomBytes } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsync } from 'fastify';
import { apiRoutes, clientLinkPath } from '../../../shared/api-routes.ts';
import { handle } from '../../described-route.ts';
import { setClientLanguage } from '../clients/clients.commands.ts';
import { readClientLanguage } from '../clients/clients.queries.ts';
import { checkedClientId, clientNotFound } from '../clients/current-client.ts';
import { listSessionsOfUser } from '../auth/accounts.queries.ts';
import { currentUser, hashToken, publicSessionId, requireUser } from '../auth/session.ts';
import { toClientLink } from './client-link.ts';
import { createClientLink, revokeClientLink, type LinkMaker } from './client-links.commands.ts';
import { findCurrentLink } from './client-links.queries.ts';

const dayMs = 86_400_000;

/** Kept on the link, since the session may be gone by the time the owner asks who made it. */
async function linkMaker(request: FastifyRequest): Promise<LinkMaker> {
  const token = request.accessToken;
  if (token) return { kind: 'token', id: token.id, label: token.name, startedAt: token.createdAt };
  const tokenHash = request.sessionTokenHash ?? '';
  const sessions = await listSessionsOfUser(request.server.db.kysely, currentUser(request).id);
  const session = sessions.find((row) => row.token_hash === tokenHash);
  return {
    kind: 'session',
    id: publicSessionId(tokenHash),
    label: session?.user_agent ?? null,
    startedAt: session?.created_at ?? null,
  };
}

/** The owner's side: make, read and revoke a client's link, and set the client's language. */
export const clientLinksRoutes: FastifyPluginAsync = async (app) => {
  const { kysely: db } = app.db;
  app.addHook('onRequest', requireUser);

  handle(
    app,
    apiRoutes.clientLink,
    { summary: "The client's private link (never its secret) and the client's language" },
    async (request) => {
      const bookId = currentBook(request).id;
      const id = checkedClientId(request.params.id);
      const language = await readClientLanguage(db, bookId, id);
      if (language === undefined) throw clientNotFound();
      const link = await findCurrentLink(db, bookId, id);
      return { link: link ? toClientLink(link, Date.now()) : null, language };
    },
  );

  handle(
    app,
    apiRoutes.createClientLink,
    {
      summary:
        "Make a private link to the client's statement, replacing the one it had; its address is in this answer only",
      // The answer holds the secret: it must not be kept for a retry. A retry makes a new link.
      config: { idempotency: false },
    },
    async (request, reply) => {
      const id = checkedClientId(request.params.id);
      const secret = randomBytes(32).toString('base64url');
      const days = request.body.expiresInDays ?? null;
      const link = await app.writes.run(
        createClientLink,
        currentBook(request),
        id,
        hashToken(secret),
        days === null ? null : Date.now() + days * dayMs,
        await linkMaker(request),
      );
      return reply.status(201).send({ link, path: clientLinkPath(secret) });
    },
  );

  handle(
    app,
    apiRoutes.revokeClientLink,
    { summary: "Revoke the client's link at once" },
    async (request, reply) => {
      const id = checkedClientId(request.params.id);
      await app.writes.run(revokeClientLink, currentBook(request), id);
      return reply.status(204).send();
    },
  );

  handle(
    app,
    apiRoutes.setClientLanguage,
    { summary: "The client's language for their link's page; null follows the owner's" },
    async (request) => {
      const id = checkedClientId(request.params.id);
      const language = await app.writes.run(
        setClientLanguage,
        currentBook(request),
        id,
        request.body.language,
      );
      return { language };
    },
  );
};
