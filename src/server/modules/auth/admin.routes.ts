import type { FastifyPluginAsync } from 'fastify';
import { apiRoutes } from '../../../shared/api-routes.ts';
import { handle } from '../../described-route.ts';
import type { FastifyRequest } from 'fastify';
import { AppError, notFound } from '../../errors.ts';
import {
  createInvitationLink,
  createPasswordResetLink,
  disableUser,
  enableUser,
} from './accounts.commands.ts';
import { findUserById, listUsers } from './accounts.queries.ts';
import { currentUser, requireSession } from './session.ts';

async function requireAdmin(request: FastifyRequest): Promise<void> {
  await requireSession(request);
  if (!currentUser(request).isAdmin) {
    throw new AppError(403, 'forbidden', 'Only the administrator can do this');
  }
}

const iso = (ms: number) => new Date(ms).toISOString();
const link = (value: { path: string; expiresAt: number }) => ({
  path: value.path,
  expiresAt: iso(value.expiresAt),
});

export const adminRoutes: FastifyPluginAsync = async (app) => {
  const { kysely: db } = app.db;

  handle(app, apiRoutes.adminUsers, { onRequest: requireAdmin }, async () => {
    const rows = await listUsers(db);
    return {
      users: rows.map((row) => ({
        id: row.id,
        email: row.email,
        isAdmin: row.is_admin === 1,
        disabled: row.disabled_at !== null,
        createdAt: iso(row.created_at),
        lastSeenAt: row.last_seen_at === null ? null : iso(row.last_seen_at),
        clients: Number(row.clients ?? 0),
      })),
    };
  });

  handle(app, apiRoutes.disableUser, { onRequest: requireAdmin }, async (request, reply) => {
    const admin = currentUser(request);
    if (request.params.id === admin.id) {
      // Nobody would be left to enable it again.
      throw new AppError(403, 'forbidden', 'You cannot disable your own account');
    }
    const ended = await disableUser(db, request.params.id, Date.now());
    for (const tokenHash of ended) app.feed.endSession(request.params.id, tokenHash);
    return reply.status(204).send();
  });

  handle(app, apiRoutes.enableUser, { onRequest: requireAdmin }, async (request, reply) => {
    await enableUser(db, request.params.id);
    return reply.status(204).send();
  });

  handle(app, apiRoutes.createResetLink, { onRequest: requireAdmin }, async (request, reply) => {
    if (!(await findUserById(db, request.params.id))) throw notFound('No such account');
    const created = await createPasswordResetLink(db, request.params.id, Date.now());
    return reply.status(201).send(link(created));
  });

  handle(app, apiRoutes.createInvitation, { onRequest: requireAdmin }, async (request, reply) => {
    const created = await createInvitationLink(
      db,
      request.body.email,
      currentUser(request).id,
      Date.now(),
    );
    return reply.status(201).send(link(created));
  });
};
