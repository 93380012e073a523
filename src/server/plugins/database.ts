import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { apiRoutes } from '../../shared/api-routes.ts';
import type { Config } from '../config.ts';
import { createDb, type Db } from '../db/database.ts';
import { migrateWhenReachable } from '../db/database-start.ts';
import { AppError } from '../errors.ts';
import { liveSessionBooks } from '../modules/auth/session.ts';
import { ChangeFeed } from '../modules/events/feed.ts';
import { isTokenStreamKey, liveTokenBooks } from '../modules/tokens/tokens.ts';

declare module 'fastify' {
  interface FastifyInstance {
    db: Db;
    feed: ChangeFeed;
    /**
     * Settles once the database is reached and migrated (and the live feed listens), or rejects
     * with what the operator must fix; `buildApp` waits for it unless told to start without it.
     */
    databaseReady: Promise<void>;
  }
}

const sqliteThread = new URL(
  import.meta.url.endsWith('.ts') ? '../sqlite-thread.ts' : './sqlite-thread.js',
  import.meta.url,
);

/** Routes that answer while the database is not ready: health, and the static files' wildcard. */
const servedBeforeTheDatabase = new Set<string>([apiRoutes.health.path, '/*']);

export interface DatabaseOptions {
  config: Config;
  /** Told when an SQLite worker thread stops: `npm start` ends the process (decision 009). */
  onFatal?: ((error: Error) => void) | undefined;
}

/**
 * The database and the live feed of its changes: reached, migrated and listened to in the
 * background, with 503 for every route but health until then, and closed with the server.
 */
export const database = fp<DatabaseOptions>(
  async (app: FastifyInstance, { config, onFatal }) => {
    const db = createDb(
      config.database,
      // The request that meets it answers 503: only a warning here.
      (error) => app.log.warn({ err: error }, 'database connection lost'),
      config.databaseTimeouts,
      (error) => {
        app.log.fatal({ err: error }, 'an SQLite worker thread stopped: queries sent to it fail');
        onFatal?.(error);
      },
      sqliteThread,
    );
    app.decorate('db', db);
    // Closing while the start still waits gives up on it: an attempt would hold the pool's end
    // for up to a connect or statement timeout, and nothing was served that needs a clean end.
    const starting = new AbortController();
    app.addHook('onClose', async () => {
      const stillStarting = db.health.starting !== null;
      starting.abort(new Error('the server closed before the database was ready'));
      const destroyed = db.kysely.destroy();
      if (stillStarting) destroyed.catch(() => {});
      else await destroyed;
    });

    const feed = new ChangeFeed(db, app.log, {
      heartbeatMs: config.liveHeartbeatMs,
      connectTimeoutMs: config.databaseTimeouts.connectMs,
      liveSessions: async (keys) => {
        const tokenKeys = keys.filter(isTokenStreamKey);
        const sessionKeys = keys.filter((key) => !isTokenStreamKey(key));
        const [sessions, tokens] = await Promise.all([
          liveSessionBooks(db.kysely, config, sessionKeys),
          liveTokenBooks(db.kysely, tokenKeys),
        ]);
        return new Map([...sessions, ...tokens]);
      },
    });
    app.decorate('feed', feed);
    const databaseReady = (async () => {
      await migrateWhenReachable(db, app.log, starting.signal);
      await feed.start();
      starting.signal.throwIfAborted();
      db.health.starting = null;
    })();
    // Heard here so a failure before anyone awaits it is no unhandled rejection; it still rejects.
    databaseReady.catch(() => {});
    app.decorate('databaseReady', databaseReady);
    // Live streams never end by themselves: end them first, so close() can finish the rest.
    app.addHook('preClose', async () => {
      await feed.close();
    });

    // Until the database is ready, only health and the browser app's files are served.
    app.addHook('onRequest', async (request) => {
      if (db.health.starting === null) return;
      const route = request.routeOptions.url;
      if (route === undefined || servedBeforeTheDatabase.has(route)) return;
      throw new AppError(
        503,
        'unavailable',
        'The database cannot be reached right now; please try again in a moment',
        { headers: { 'retry-after': '5' } },
      );
    });

    // A write that succeeds shows that space is back (SQLite recovers by itself).
    app.addHook('onResponse', (request, reply, done) => {
      if (
        db.health.diskFull &&
        request.method !== 'GET' &&
        request.method !== 'HEAD' &&
        reply.statusCode < 400
      )
        db.health.diskFull = false;
      done();
    });
  },
  { name: 'database', dependencies: ['core'] },
);
