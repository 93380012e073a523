import { currentBook } from '../books/current-book.ts';
import type { FastifyPluginAsync } from 'fastify';
import { apiRoutes } from '../../../shared/api-routes.ts';
import { handle } from '../../described-route.ts';
import { AppError } from '../../errors.ts';
import { passwordResetByEmail } from '../auth/forgot-password.routes.ts';
import { currentUser, requireUser } from '../auth/session.ts';
import { finishSetup, saveLanguage, saveSettings } from './settings.commands.ts';
import {
  readAllowRegistration,
  readBusinessSettings,
  readFirstRun,
  readPreferences,
  readRates,
} from './settings.queries.ts';

export const settingsRoutes: FastifyPluginAsync = async (app) => {
  const { kysely: db } = app.db;

  // Public: signed out, Join and "Forgot password?" are offered only where they work.
  handle(app, apiRoutes.publicSettings, { security: [] }, async () => ({
    allowRegistration: await readAllowRegistration(db),
    passwordResetByEmail: passwordResetByEmail(app.config),
  }));

  handle(app, apiRoutes.settings, { onRequest: requireUser }, async (request) => {
    const user = currentUser(request);
    const book = currentBook(request);
    const [preferences, rates, allowRegistration, business] = await Promise.all([
      readPreferences(db, book.id),
      readRates(db, book.id),
      readAllowRegistration(db),
      readBusinessSettings(db, book.id),
    ]);
    return {
      preferences,
      rates,
      allowRegistration: user.isAdmin ? allowRegistration : null,
      business,
    };
  });

  handle(app, apiRoutes.saveSettings, { onRequest: requireUser }, async (request) => {
    const user = currentUser(request);
    const book = currentBook(request);
    if (request.body.allowRegistration !== undefined && !user.isAdmin) {
      throw new AppError(403, 'forbidden', 'Only the administrator can change registration');
    }
    await app.writes.run(saveSettings, book, request.body);
    return {
      preferences: await readPreferences(db, book.id),
      rates: await readRates(db, book.id),
      allowRegistration: user.isAdmin ? await readAllowRegistration(db) : null,
      business: await readBusinessSettings(db, book.id),
    };
  });

  // Apart from Save: choosing a language shows the app in it at once.
  handle(app, apiRoutes.saveLanguage, { onRequest: requireUser }, async (request) => {
    const { language } = request.body;
    const book = currentBook(request);
    await app.writes.run(saveLanguage, book, language, {
      userId: book.actor.userId,
      isOwner: book.role === 'owner',
    });
    return { language };
  });

  // Done or skipped, once: the dashboard stops sending the owner here, on every device.
  handle(app, apiRoutes.finishSetup, { onRequest: requireUser }, async (request) => {
    const book = currentBook(request);
    await app.writes.run(finishSetup, book, request.body);
    return readFirstRun(db, book.id);
  });
};
