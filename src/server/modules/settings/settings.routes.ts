import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { languageUpdateSchema } from '../../../shared/schemas/language.ts';
import { firstRunSchema } from '../../../shared/schemas/first-run.ts';
import {
  publicSettingsSchema,
  settingsSchema,
  settingsUpdateSchema,
  setupSchema,
} from '../../../shared/schemas/settings.ts';
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

export const settingsRoutes: FastifyPluginAsyncZod = async (app) => {
  const { kysely: db } = app.db;

  // Public: signed out, Join and "Forgot password?" are offered only where they work.
  app.get(
    '/settings/public',
    { schema: { security: [], response: { 200: publicSettingsSchema } } },
    async () => ({
      allowRegistration: await readAllowRegistration(db),
      passwordResetByEmail: passwordResetByEmail(app.config),
    }),
  );

  app.get(
    '/settings',
    { onRequest: requireUser, schema: { response: { 200: settingsSchema } } },
    async (request) => {
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
    },
  );

  app.put(
    '/settings',
    {
      onRequest: requireUser,
      schema: { body: settingsUpdateSchema, response: { 200: settingsSchema } },
    },
    async (request) => {
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
    },
  );

  // Apart from Save: choosing a language shows the app in it at once.
  app.put(
    '/settings/language',
    {
      onRequest: requireUser,
      schema: { body: languageUpdateSchema, response: { 200: languageUpdateSchema } },
    },
    async (request) => {
      const { language } = request.body;
      await app.writes.run(saveLanguage, currentUser(request).id, language);
      return { language };
    },
  );

  // Done or skipped, once: the dashboard stops sending the owner here, on every device.
  app.put(
    '/settings/setup',
    {
      onRequest: requireUser,
      schema: { body: setupSchema, response: { 200: firstRunSchema } },
    },
    async (request) => {
      const user = currentUser(request);
      await app.writes.run(finishSetup, user.id, request.body);
      return readFirstRun(db, user.id);
    },
  );
};
