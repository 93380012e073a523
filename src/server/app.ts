import Fastify, { type FastifyInstance } from 'fastify';
import type { Config } from './config.ts';
import { core, fastifyOptions } from './plugins/core.ts';
import { database } from './plugins/database.ts';
import { routes } from './plugins/routes.ts';
import { writes } from './plugins/writes.ts';

export interface AppOptions {
  config: Config;
  clientDir?: string | null;
  logger?: boolean | Record<string, unknown>;
  /** `npm start` ends the process so the supervisor starts a clean one (decision 009). */
  onFatal?: (error: Error) => void;
  /** Send due reminders every minute (`npm start`); tests run their own sender when they need one. */
  sendReminders?: boolean;
  /**
   * `npm start` listens before the database answers, so a server started while PostgreSQL is
   * down keeps trying and serves once it is back (503 until then); tests get a ready app.
   */
  waitForDatabase?: boolean;
}

/**
 * The server, composed in the order a request meets it: the core (parsing, security headers,
 * errors), the database and its live feed, the write path, then the routes. Each plugin's hooks
 * run in this order, so the order is part of the behaviour.
 */
export async function buildApp(options: AppOptions): Promise<FastifyInstance> {
  const { config } = options;
  const app = Fastify(fastifyOptions(config, options.logger));
  await app.register(core, { config });
  await app.register(database, { config, onFatal: options.onFatal });
  await app.register(writes, { config, sendReminders: options.sendReminders });
  await app.register(routes, { clientDir: options.clientDir ?? null });

  if (options.waitForDatabase ?? true) {
    try {
      await app.databaseReady;
    } catch (error) {
      await app.close();
      throw error;
    }
  }
  return app;
}
