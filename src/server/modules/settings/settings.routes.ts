import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  publicSettingsSchema,
  settingsSchema,
  settingsUpdateSchema,
} from '../../../shared/schemas/settings.ts';
import { AppError } from '../../errors.ts';
import { currentUser, requireUser } from '../auth/session.ts';
import { appendEvent } from '../events/events.repository.ts';
import {
  readAllowRegistration,
  readPreferences,
  readRates,
  replaceRates,
  writeAllowRegistration,
  writePreferences,
} from './settings.repository.ts';

export const settingsRoutes: FastifyPluginAsyncZod = async (app) => {
  const { kysely: db, dialect } = app.db;

  // Public: the signed-out navbar needs to know whether to offer Join.
  app.get(
    '/settings/public',
    { schema: { response: { 200: publicSettingsSchema } } },
    async () => ({
      allowRegistration: await readAllowRegistration(db),
    }),
  );

  app.get(
    '/settings',
    { onRequest: requireUser, schema: { response: { 200: settingsSchema } } },
    async (request) => {
      const user = currentUser(request);
      const [preferences, rates, allowRegistration] = await Promise.all([
        readPreferences(db, user.id),
        readRates(db, user.id),
        readAllowRegistration(db),
      ]);
      return { preferences, rates, allowRegistration: user.isAdmin ? allowRegistration : null };
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
      const { preferences, rates, allowRegistration } = request.body;
      if (allowRegistration !== undefined && !user.isAdmin) {
        throw new AppError(403, 'forbidden', 'Only the administrator can change registration');
      }
      const now = Date.now();
      await db.transaction().execute(async (trx) => {
        await writePreferences(trx, user.id, preferences, now);
        await replaceRates(trx, user.id, rates);
        if (allowRegistration !== undefined)
          await writeAllowRegistration(trx, allowRegistration, now);
        await appendEvent(trx, dialect, {
          ownerId: user.id,
          clientId: null,
          action: 'settings_changed',
          at: now,
          version: 0,
          before: null,
          after: null,
        });
      });
      await app.feed.publishSafely(user.id);
      return {
        preferences,
        rates: await readRates(db, user.id),
        allowRegistration: user.isAdmin ? await readAllowRegistration(db) : null,
      };
    },
  );
};
