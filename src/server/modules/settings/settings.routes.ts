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
    const [preferences, rates, allowRegistration, business] = await Promise.all([
      readPreferences(db, user.id),
      readRates(db, user.id),
      readAllowRegistration(db),
      readBusinessSettings(db, user.id),
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
    if (request.body.allowRegistration !== undefined && !user.isAdmin) {
      throw new AppError(403, 'forbidden', 'Only the administrator can change registration');
    }
    await app.writes.run(saveSettings, user.id, request.body);
    return {
      preferences: await readPreferences(db, user.id),
      rates: await readRates(db, user.id),
      allowRegistration: user.isAdmin ? await readAllowRegistration(db) : null,
      business: await readBusinessSettings(db, user.id),
    };
  });

  // Apart from Save: choosing a language shows the app in it at once.
  handle(app, apiRoutes.saveLanguage, { onRequest: requireUser }, async (request) => {
    const { language } = request.body;
    await app.writes.run(saveLanguage, currentUser(request).id, language);
    return { language };
  });

  // Done or skipped, once: the dashboard stops sending the owner here, on every device.
  handle(app, apiRoutes.finishSetup, { onRequest: requireUser }, async (request) => {
    const user = currentUser(request);
    await app.writes.run(finishSetup, user.id, request.body);
    return readFirstRun(db, user.id);
  });
};
