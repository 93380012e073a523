import type { FastifyInstance } from 'fastify';
import type { FastifyPluginAsync } from 'fastify';
import { apiRoutes } from '../../../shared/api-routes.ts';
import { handle } from '../../described-route.ts';
import { AppError, notFound } from '../../errors.ts';
import {
  changeEmail,
  changePassword,
  deleteAccount,
  endOtherSessions,
  endSessionOfUser,
  resetPasswordWithLink,
} from './accounts.commands.ts';
import { listSessionsOfUser } from './accounts.queries.ts';
import { confirmPassword, hashNewPassword } from './password-check.ts';
import { clearSessionCookie, currentUser, publicSessionId, requireSession } from './session.ts';
import { requestLocale } from '../../i18n.ts';
import { describeUserAgent } from './user-agent.ts';

const iso = (ms: number) => new Date(ms).toISOString();

/** Other instances notice at their next heartbeat. */
function endStreams(app: FastifyInstance, userId: string, tokenHashes: string[]): void {
  for (const tokenHash of tokenHashes) app.feed.endSession(userId, tokenHash);
}

export const accountRoutes: FastifyPluginAsync = async (app) => {
  const { kysely: db } = app.db;

  handle(app, apiRoutes.accountSessions, { onRequest: requireSession }, async (request) => {
    const user = currentUser(request);
    const rows = await listSessionsOfUser(db, user.id);
    const locale = requestLocale(request);
    return {
      sessions: rows.map((row) => ({
        id: publicSessionId(row.token_hash),
        device: describeUserAgent(row.user_agent, locale),
        createdAt: iso(row.created_at),
        lastSeenAt: iso(row.last_seen_at),
        current: row.token_hash === request.sessionTokenHash,
      })),
    };
  });

  handle(app, apiRoutes.endSession, { onRequest: requireSession }, async (request, reply) => {
    const user = currentUser(request);
    const rows = await listSessionsOfUser(db, user.id);
    // Only the user's own sessions are looked at: another's id answers like a missing one.
    const row = rows.find(
      (candidate) => publicSessionId(candidate.token_hash) === request.params.id,
    );
    if (!row || !(await endSessionOfUser(db, user.id, row.token_hash)))
      throw notFound('No such session');
    endStreams(app, user.id, [row.token_hash]);
    if (row.token_hash === request.sessionTokenHash) clearSessionCookie(request, reply);
    return reply.status(204).send();
  });

  handle(app, apiRoutes.endOtherSessions, { onRequest: requireSession }, async (request) => {
    const user = currentUser(request);
    const ended = await endOtherSessions(db, user.id, request.sessionTokenHash ?? '');
    endStreams(app, user.id, ended);
    return { ended: ended.length };
  });

  handle(app, apiRoutes.changePassword, { onRequest: requireSession }, async (request, reply) => {
    const user = currentUser(request);
    const { currentPassword, newPassword } = request.body;
    await confirmPassword(request, user.id, currentPassword, 'currentPassword');
    const passwordHash = await hashNewPassword(request, newPassword, 'newPassword');
    const ended = await changePassword(db, user.id, passwordHash, request.sessionTokenHash ?? '');
    endStreams(app, user.id, ended);
    return reply.status(204).send();
  });

  handle(app, apiRoutes.changeEmail, { onRequest: requireSession }, async (request) => {
    const user = currentUser(request);
    const { email, password } = request.body;
    await confirmPassword(request, user.id, password);
    const ended = await changeEmail(db, user.id, email, request.sessionTokenHash ?? '');
    endStreams(app, user.id, ended);
    return { user: { ...user, email: email.trim() } };
  });

  handle(app, apiRoutes.deleteAccount, { onRequest: requireSession }, async (request, reply) => {
    const user = currentUser(request);
    const row = await confirmPassword(request, user.id, request.body.password);
    await deleteAccount(app.db.kysely, app.writes, user, row);
    clearSessionCookie(request, reply);
    return reply.status(204).send();
  });

  // Public: whoever holds the link may set the password, once, within its time.
  handle(app, apiRoutes.resetPassword, { security: [] }, async (request, reply) => {
    const { token, password } = request.body;
    const passwordHash = await hashNewPassword(request, password, 'password');
    const reset = await resetPasswordWithLink(db, token, passwordHash);
    if (!reset) {
      throw new AppError(
        400,
        'invalid_link',
        'This link is not valid: it has been used or has expired. Ask the administrator for a new one.',
      );
    }
    endStreams(app, reset.userId, reset.ended);
    return reply.status(204).send();
  });
};
