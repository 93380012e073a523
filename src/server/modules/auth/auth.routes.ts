import { sessionBook } from '../books/current-book.ts';
import { booksOf } from '../books/books.queries.ts';
import { setTimeout as sleep } from 'node:timers/promises';
import type { FastifyPluginAsync } from 'fastify';
import { apiRoutes } from '../../../shared/api-routes.ts';
import { handle } from '../../described-route.ts';
import {
  readAllowRegistration,
  readFirstRun,
  readPersonLanguage,
} from '../settings/settings.queries.ts';
import { AppError } from '../../errors.ts';
import {
  endSession,
  registrationClosed,
  signUp,
  upgradePasswordHash,
} from './accounts.commands.ts';
import { emailKey, findUserByEmail, toSessionUser } from './accounts.queries.ts';
import { hashForUnknownUser, hashPassword, isCommonPassword, verifyPassword } from './password.ts';
import { scheduleHousekeeping } from './housekeeping.ts';
import {
  clearSessionCookie,
  hashToken,
  readSession,
  setSessionCookie,
  startSession,
} from './session.ts';
import { countLoginAttempt, countSignUp, forgiveLoginAttempt, throttleKeys } from './throttle.ts';

const invalidCredentials = () =>
  new AppError(401, 'invalid_credentials', 'Invalid email or password');

export const authRoutes: FastifyPluginAsync = async (app) => {
  const { kysely: db } = app.db;
  const hashParams = app.config.passwordHashing;
  // Ready before the first login, so the first unknown e-mail takes no longer than the next.
  await hashForUnknownUser(hashParams);
  scheduleHousekeeping(app);

  handle(app, apiRoutes.session, { security: [] }, async (request) => {
    const session = request.accessToken ? null : await readSession(request);
    const user = request.accessToken ? request.user : (session?.user ?? null);
    if (!user) return { user: null };
    const book =
      request.accessToken || !session
        ? request.book
        : await sessionBook(db, {
            tokenHash: session.tokenHash,
            bookId: session.bookId,
            userId: user.id,
            role: session.role,
          });
    const [language, firstRun, books] = await Promise.all([
      readPersonLanguage(db, user.id),
      readFirstRun(db, book?.id ?? null),
      booksOf(db, user.id, book?.id ?? null),
    ]);
    return { user, language, firstRun, book: books.current, books: books.books };
  });

  handle(app, apiRoutes.join, { security: [] }, async (request, reply) => {
    const { email, password, invite } = request.body;
    // With an invitation, the check that counts is the one in the transaction that uses it up.
    if (invite === undefined && !(await readAllowRegistration(db))) throw registrationClosed();
    await countSignUp(db, request.ip, app.config.signUpsPerAddressPerHour, Date.now());
    if (await isCommonPassword(password)) {
      throw new AppError(400, 'validation', 'This password is too common.', {
        fields: { password: 'This password is one of the most common; choose another.' },
      });
    }
    const passwordHash = await hashPassword(password, hashParams);
    const created = await signUp(db, {
      email,
      passwordHash,
      invite,
      userAgent: request.headers['user-agent'],
    });
    const previous = await readSession(request);
    if (previous) await endSession(db, previous.tokenHash);
    setSessionCookie(request, reply, created.token);
    // The new account's own book has its id.
    const books = await booksOf(db, created.user.id, created.user.id);
    return reply.status(201).send({
      user: created.user,
      firstRun: await readFirstRun(db, created.user.id),
      book: books.current,
      books: books.books,
    });
  });

  handle(app, apiRoutes.login, { security: [] }, async (request, reply) => {
    const { email, password } = request.body;
    const keys = throttleKeys(emailKey(email), request.ip);
    const { delayMs } = await countLoginAttempt(db, keys, Date.now());
    const user = await findUserByEmail(db, email);
    // An unknown e-mail costs the same hashing as a wrong password, and gets the same answer.
    const matches = await verifyPassword(
      password,
      user?.password_hash ?? (await hashForUnknownUser(hashParams)),
    );
    if (!user || !matches) {
      if (delayMs > 0) await sleep(delayMs);
      throw invalidCredentials();
    }
    await forgiveLoginAttempt(db, keys);
    // Told only to whoever knows the password, so it reveals nothing to a guesser.
    if (user.disabled_at !== null) {
      throw new AppError(
        403,
        'account_disabled',
        'This account has been disabled. Ask the administrator of this Balance.',
      );
    }
    await upgradePasswordHash(db, user, password, hashParams);
    const previous = await readSession(request);
    if (previous) await endSession(db, previous.tokenHash);
    const token = await startSession(db, user.id, Date.now(), request.headers['user-agent']);
    setSessionCookie(request, reply, token);
    const book = await sessionBook(db, {
      tokenHash: hashToken(token),
      bookId: null,
      userId: user.id,
    });
    const [language, firstRun, books] = await Promise.all([
      readPersonLanguage(db, user.id),
      readFirstRun(db, book?.id ?? null),
      booksOf(db, user.id, book?.id ?? null),
    ]);
    return reply.status(200).send({
      user: toSessionUser(user),
      language,
      firstRun,
      book: books.current,
      books: books.books,
    });
  });

  handle(app, apiRoutes.logout, { security: [] }, async (request, reply) => {
    const session = await readSession(request);
    if (session) {
      await endSession(db, session.tokenHash);
      app.feed.endSession(session.user.id, session.tokenHash);
    }
    clearSessionCookie(request, reply);
    return reply.status(204).send();
  });
};
