import { randomBytes } from 'node:crypto';
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import { apiRoutes } from '../../../shared/api-routes.ts';
import { bookInvitationValidity, type BookInvitation } from '../../../shared/schemas/members.ts';
import { handle } from '../../described-route.ts';
import { AppError, notFound } from '../../errors.ts';
import { requestLocale, translate } from '../../i18n.ts';
import { newId } from '../../ids.ts';
import { MailError } from '../../mail/mailer.ts';
import { emailKey, findUserByEmail, toSessionUser } from '../auth/accounts.queries.ts';
import { createInvitedAccount } from '../auth/accounts.commands.ts';
import { hashPassword, isCommonPassword } from '../auth/password.ts';
import {
  currentUser,
  hashToken,
  readSession,
  requireSession,
  requireUser,
  setSessionCookie,
  startSession,
} from '../auth/session.ts';
import { countSignUp } from '../auth/throttle.ts';
import { readFirstRun, readLockDate, readPersonLanguage } from '../settings/settings.queries.ts';
import { saveLockDate } from '../settings/settings.commands.ts';
import { readActivity } from '../events/events.queries.ts';
import {
  acceptInvitation,
  changeMember,
  invalidInvitation,
  inviteMember,
  removeMember,
  revokeInvitation,
} from './members.commands.ts';
import {
  booksOf,
  findBookName,
  findInvitationByHash,
  listBooksOf,
  listInvitations,
  listMembers,
} from './books.queries.ts';
import { chooseBook, createBook, removeBooks } from './books.commands.ts';
import { currentBook } from './current-book.ts';

function invitationStatus(
  row: { accepted_at: number | null; revoked_at: number | null; expires_at: number },
  now: number,
): BookInvitation['status'] {
  if (row.accepted_at !== null) return 'accepted';
  if (row.revoked_at !== null) return 'revoked';
  return row.expires_at <= now ? 'expired' : 'pending';
}

const bookNotFound = () => notFound('No such book');

export const booksRoutes: FastifyPluginAsync = async (app) => {
  const { kysely: db } = app.db;
  const { mailer } = app;

  async function membersAnswer(request: FastifyRequest) {
    const book = currentBook(request);
    const now = Date.now();
    const [members, invitations] = await Promise.all([
      listMembers(db, book.id),
      listInvitations(db, book.id),
    ]);
    return {
      members: members.map((member) => ({
        userId: member.userId,
        email: member.email,
        role: member.role,
        clientIds: member.clientIds,
        addedAt: new Date(member.createdAt).toISOString(),
        isYou: member.userId === book.actor.userId,
      })),
      invitations: invitations.map((row) => ({
        id: row.id,
        email: row.email,
        role: row.role,
        clientIds: JSON.parse(row.client_ids) as string[],
        createdAt: new Date(row.created_at).toISOString(),
        expiresAt: new Date(row.expires_at).toISOString(),
        status: invitationStatus(row, now),
      })),
    };
  }

  handle(app, apiRoutes.books, { onRequest: requireUser }, async (request) =>
    booksOf(db, currentUser(request).id, request.book?.id ?? null),
  );

  // A token acts in its one book: choosing or making another is a session's.
  handle(app, apiRoutes.switchBook, { onRequest: requireSession }, async (request) => {
    const user = currentUser(request);
    const books = await listBooksOf(db, user.id);
    const chosen = books.find((book) => book.id === request.body.bookId);
    if (!chosen || request.sessionTokenHash === null) throw bookNotFound();
    await chooseBook(db, request.sessionTokenHash, chosen.id);
    return { current: chosen, books };
  });

  handle(app, apiRoutes.createBook, { onRequest: requireSession }, async (request, reply) => {
    const user = currentUser(request);
    const id = newId();
    const now = Date.now();
    await db.transaction().execute(async (trx) => {
      // Named as the business; the first-run setup asks the rest.
      await createBook(trx, { id, ownerId: user.id, now, name: request.body.name });
      if (request.sessionTokenHash !== null) await chooseBook(trx, request.sessionTokenHash, id);
    });
    return reply.status(201).send(await booksOf(db, user.id, id));
  });

  handle(app, apiRoutes.deleteBook, { onRequest: requireSession }, async (request, reply) => {
    const book = currentBook(request);
    await app.writes.removeBooks([book.id], (trx) => removeBooks(trx, [book.id]));
    return reply.status(204).send(null);
  });

  handle(app, apiRoutes.bookMembers, { onRequest: requireUser }, async (request) =>
    membersAnswer(request),
  );

  // Who keeps the book changes from a session only, as tokens are made (tokens.routes.ts): a
  // token that could let in an owner would leave one behind after its own revocation.
  handle(
    app,
    apiRoutes.inviteMember,
    { onRequest: requireSession, config: { idempotency: false } },
    async (request, reply) => {
      const book = currentBook(request);
      const { email, role, clientIds } = request.body;
      const token = randomBytes(32).toString('base64url');
      const id = newId();
      const expiresAt = Date.now() + bookInvitationValidity;
      const created = await app.writes.run(inviteMember, book, {
        id,
        email,
        emailKey: emailKey(email),
        role,
        clientIds,
        tokenHash: hashToken(token),
        invitedBy: book.actor.userId,
        expiresAt,
      });
      const path = `/invitation/${token}`;
      const mailed = await mailInvitation(request, { email, path, role });
      return reply.status(201).send({
        invitation: {
          id,
          email,
          role,
          clientIds: created.clientIds,
          createdAt: new Date(created.createdAt).toISOString(),
          expiresAt: new Date(expiresAt).toISOString(),
          status: 'pending' as const,
        },
        path,
        mailed,
      });
    },
  );

  /** Sent where mail is set up; the owner can always copy the link instead. */
  async function mailInvitation(
    request: FastifyRequest,
    invitation: { email: string; path: string; role: string },
  ): Promise<boolean> {
    const { publicUrl } = app.config;
    if (!mailer || publicUrl === null) return false;
    const locale = requestLocale(request);
    const name = await findBookName(db, currentBook(request).id);
    try {
      await mailer.send({
        to: invitation.email,
        replyTo: currentUser(request).email,
        subject: translate(locale, 'You are invited to keep the book of {name} in Balance', {
          name,
        }),
        text: [
          translate(locale, '{inviter} invites you to keep the book of {name} in Balance.', {
            inviter: currentUser(request).email,
            name,
          }),
          '',
          translate(locale, 'Open this link within 7 days to accept. It works once:'),
          `${publicUrl}${invitation.path}`,
        ].join('\n'),
      });
      return true;
    } catch (error) {
      // Never the link in the log: whoever reads it could join the book.
      request.log.error(
        error instanceof MailError
          ? { mail: { kind: error.kind, reply: error.reply } }
          : { err: error },
        'The invitation e-mail could not be sent',
      );
      return false;
    }
  }

  handle(app, apiRoutes.revokeInvitation, { onRequest: requireSession }, async (request, reply) => {
    await app.writes.run(revokeInvitation, currentBook(request), request.params.id);
    return reply.status(204).send(null);
  });

  handle(app, apiRoutes.changeMember, { onRequest: requireSession }, async (request) => {
    const book = currentBook(request);
    const { userId } = request.params;
    await app.writes.run(changeMember, book, userId, request.body);
    // Their open tabs ask again, as what they are now.
    app.feed.endMember(book.id, userId);
    return membersAnswer(request);
  });

  handle(app, apiRoutes.removeMember, { onRequest: requireSession }, async (request, reply) => {
    const book = currentBook(request);
    const { userId } = request.params;
    await app.writes.run(removeMember, book, userId);
    app.feed.endMember(book.id, userId);
    return reply.status(204).send(null);
  });

  const activityPage = 50;

  handle(app, apiRoutes.bookActivity, { onRequest: requireUser }, async (request) => {
    const book = currentBook(request);
    const { person, before } = request.query;
    const events = await readActivity(db, book.id, {
      actorId: person,
      beforeId: before === undefined ? undefined : Number(before),
      limit: activityPage + 1,
    });
    const page = events.slice(0, activityPage);
    const last = page.at(-1);
    return {
      events: page,
      nextCursor: events.length > activityPage && last ? String(last.id) : null,
    };
  });

  handle(app, apiRoutes.lockDate, { onRequest: requireUser }, async (request) => ({
    lockDate: await readLockDate(db, currentBook(request).id),
  }));

  handle(app, apiRoutes.setLockDate, { onRequest: requireUser }, async (request) => {
    const book = currentBook(request);
    await app.writes.run(saveLockDate, book, request.body.lockDate);
    return { lockDate: await readLockDate(db, book.id) };
  });

  async function pendingInvitation(token: string) {
    const row = await findInvitationByHash(db, hashToken(token));
    if (!row || invitationStatus(row, Date.now()) !== 'pending') throw invalidInvitation();
    return row;
  }

  // The link's page asks this before anyone signs in: the secret is the credential.
  handle(app, apiRoutes.invitation, { security: [] }, async (request) => {
    const row = await pendingInvitation(request.params.token);
    return {
      bookName: await findBookName(db, row.book_id),
      email: row.email,
      role: row.role,
      invitedBy: row.invited_by_email,
      expiresAt: new Date(row.expires_at).toISOString(),
      hasAccount: (await findUserByEmail(db, row.email)) !== undefined,
    };
  });

  handle(app, apiRoutes.acceptInvitation, { security: [] }, async (request, reply) => {
    const row = await pendingInvitation(request.params.token);
    const session = await readSession(request);
    const { password } = request.body;
    let user;
    if (session) {
      user = session.user;
      // The link was mailed to one address: another account cannot take it.
      if (emailKey(user.email) !== row.email_key) {
        throw new AppError(
          403,
          'forbidden',
          'This invitation is for {email}; sign in with that e-mail',
          {
            values: { email: row.email },
          },
        );
      }
    } else {
      if (password === undefined) {
        throw new AppError(
          401,
          'unauthenticated',
          'Sign in, or choose a password, to accept this invitation',
        );
      }
      if (await findUserByEmail(db, row.email)) {
        throw new AppError(
          409,
          'email_taken',
          'An account with this e-mail exists; sign in to accept',
          {
            fields: { email: 'is already registered' },
          },
        );
      }
      // Registration closed by the administrator does not stop an invited person (issue 58).
      await countSignUp(db, request.ip, app.config.signUpsPerAddressPerHour, Date.now());
      if (await isCommonPassword(password)) {
        throw new AppError(400, 'validation', 'This password is too common.', {
          fields: { password: 'This password is one of the most common; choose another.' },
        });
      }
      const passwordHash = await hashPassword(password, app.config.passwordHashing);
      user = await createInvitedAccount(db, { email: row.email, passwordHash });
    }
    // Were it taken meanwhile, the account made for it stays, in no book: its person can sign in.
    await app.writes.run(
      acceptInvitation,
      { id: row.book_id, actor: { userId: user.id, tokenId: null } },
      { invitationId: row.id, userId: user.id },
    );
    if (session) {
      await chooseBook(db, session.tokenHash, row.book_id);
    } else {
      const token = await startSession(db, user.id, Date.now(), request.headers['user-agent']);
      await chooseBook(db, hashToken(token), row.book_id);
      setSessionCookie(request, reply, token);
    }
    const [language, firstRun, books] = await Promise.all([
      readPersonLanguage(db, user.id),
      readFirstRun(db, row.book_id),
      booksOf(db, user.id, row.book_id),
    ]);
    return reply.status(200).send({
      user: toSessionUser({ id: user.id, email: user.email, is_admin: user.isAdmin ? 1 : 0 }),
      language,
      firstRun,
      book: books.current,
      books: books.books,
    });
  });
};
