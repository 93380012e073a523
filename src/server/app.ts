import { existsSync } from 'node:fs';
import path from 'node:path';
import Fastify, { type FastifyError, type FastifyInstance, type FastifyReply } from 'fastify';
import fastifyCookie from '@fastify/cookie';
import fastifyStatic from '@fastify/static';
import {
  hasZodFastifySchemaValidationErrors,
  serializerCompiler,
  validatorCompiler,
} from 'fastify-type-provider-zod';
import type { Config } from './config.ts';
import { limitConnections } from './connection-limits.ts';
import { proxyTrust } from './proxy-trust.ts';
import { createDb, type Db } from './db/database.ts';
import { databaseFault } from './db/errors.ts';
import { migrateWhenReachable } from './db/database-start.ts';
import { AppError } from './errors.ts';
import { requestLocale, translate, translateIssue, type MessageValues } from './i18n.ts';
import type { Locale } from '../shared/locales.ts';
import { secretFreeLogging } from './log-redaction.ts';
import { OneLinePerRequest } from './request-log.ts';
import { securityHeaders } from './security-headers.ts';
import { PdfRenderer } from './modules/statements/statement-pdf-renderer.ts';
import { createMailer, type Mailer } from './mail/mailer.ts';
import { apiDocsRoutes } from './modules/api-docs/api-docs.routes.ts';
import { openApi } from './modules/api-docs/openapi.ts';
import { accountRoutes } from './modules/auth/account.routes.ts';
import { adminRoutes } from './modules/auth/admin.routes.ts';
import { authRoutes } from './modules/auth/auth.routes.ts';
import { forgotPasswordRoutes } from './modules/auth/forgot-password.routes.ts';
import { rejectCrossSite } from './modules/auth/cross-site.ts';
import { liveSessionUsers } from './modules/auth/session.ts';
import { bankRoutes } from './modules/bank/bank.routes.ts';
import { accountLinksRoutes } from './modules/client-links/account-links.routes.ts';
import { clientLinkPageRoutes } from './modules/client-links/client-link-page.routes.ts';
import { clientLinksRoutes } from './modules/client-links/client-links.routes.ts';
import { clientsRoutes } from './modules/clients/clients.routes.ts';
import { ledgerRoutes } from './modules/ledger/ledger.routes.ts';
import { overviewRoutes } from './modules/overview/overview.routes.ts';
import { statementRoutes } from './modules/statements/statement.routes.ts';
import { eventsRoutes } from './modules/events/events.routes.ts';
import { ChangeFeed } from './modules/events/feed.ts';
import { WritePath } from './modules/events/write-path.ts';
import { afterEveryChange, writeCommands, type WriteCommand } from './write-commands.ts';
import { healthRoutes } from './modules/health/health.routes.ts';
import { idempotency } from './modules/idempotency/idempotency.ts';
import { remindersRoutes } from './modules/reminders/reminders.routes.ts';
import { ReminderSender } from './modules/reminders/reminder-sender.ts';
import { settingsRoutes } from './modules/settings/settings.routes.ts';
import { bearerTokens } from './modules/tokens/bearer.ts';
import { tokensRoutes } from './modules/tokens/tokens.routes.ts';
import { isTokenStreamKey, liveTokenOwners } from './modules/tokens/tokens.ts';
import { importRoutes } from './modules/transfer/import.routes.ts';
import { restoreRoutes } from './modules/transfer/restore.routes.ts';
import { transferRoutes } from './modules/transfer/transfer.routes.ts';
import { checkJsonShape } from './json-shape.ts';

const sqliteThread = new URL(
  import.meta.url.endsWith('.ts') ? './sqlite-thread.ts' : './sqlite-thread.js',
  import.meta.url,
);

declare module 'fastify' {
  interface FastifyInstance {
    db: Db;
    config: Config;
    feed: ChangeFeed;
    writes: WritePath<WriteCommand>;
    mailer: Mailer | null;
    /** One pool of PDF threads for every statement: the owner's, the client link's, a reminder's. */
    statementPdfs: PdfRenderer;
    routeTable: ReadonlyArray<{ method: string; url: string }>;
    /**
     * Settles once the database is reached and migrated (and the live feed listens), or rejects
     * with what the operator must fix; `buildApp` waits for it unless told to start without it.
     */
    databaseReady: Promise<void>;
  }
}

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

const bodyLimitBytes = 64 * 1024;
/** Routes that answer while the database is not ready: health, and the static files' wildcard. */
const servedBeforeTheDatabase = new Set(['/api/health', '/*']);

/** Judged as the router decodes it: `/%61pi/...` reaches the same routes as `/api/...`. */
function isApiPath(url: string): boolean {
  const rawPath = url.split('?', 1)[0] ?? '';
  let decoded = rawPath;
  try {
    decoded = decodeURIComponent(rawPath);
  } catch {
    // A malformed escape never reaches a route (frameworkErrors answers it).
  }
  const lowered = decoded.toLowerCase();
  return lowered === '/api' || lowered.startsWith('/api/');
}

function errorReply(code: AppError['code'], message: string, fields?: Record<string, string>) {
  return { error: fields ? { code, message, fields } : { code, message } };
}

const fastifyClientErrors: Record<string, string> = {
  FST_ERR_CTP_INVALID_JSON_BODY: 'The request body is not valid JSON',
  FST_ERR_CTP_EMPTY_JSON_BODY: 'The request body is empty, but it was sent as JSON',
  FST_ERR_CTP_INVALID_MEDIA_TYPE: 'This kind of request body is not accepted here; send JSON',
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: 'The request body is not as long as its Content-Length says',
  FST_ERR_BAD_URL: 'The address of the request is not valid',
  FST_ERR_MAX_PARAM_LENGTH: 'The address of the request is too long',
};

function localErrorReply(
  request: { headers: Record<string, string | string[] | undefined> },
  code: AppError['code'],
  message: string,
  values?: MessageValues,
) {
  return errorReply(code, translate(requestLocale(request), message, values));
}

function validationFields(
  error: FastifyError & {
    validation: {
      instancePath: string;
      keyword: string;
      message?: string;
      params?: Record<string, unknown>;
    }[];
  },
  locale: Locale,
) {
  const fields: Record<string, string> = {};
  for (const issue of error.validation) {
    const name =
      issue.instancePath.replace(/^\//, '').replaceAll('/', '.') ||
      (error.validationContext ?? 'body');
    fields[name] ??= translateIssue(locale, issue, 'This value is invalid.');
  }
  return fields;
}

export async function buildApp(options: AppOptions): Promise<FastifyInstance> {
  const { config } = options;
  const fixedHeaders = securityHeaders(config);
  const app = Fastify({
    logger:
      options.logger === undefined || options.logger === false
        ? false
        : {
            level: config.logLevel,
            ...secretFreeLogging,
            ...(typeof options.logger === 'object' ? options.logger : {}),
          },
    logController: new OneLinePerRequest(),
    trustProxy: proxyTrust(config.trustProxy),
    bodyLimit: bodyLimitBytes,
    // Else a slow upload that never finishes holds its connection for ever.
    requestTimeout: config.requestTimeoutMs,
    http: {
      headersTimeout: Math.min(config.requestTimeoutMs, 10_000),
      // Node's default, 30 s, is far beyond a short limit.
      connectionsCheckingInterval: Math.min(config.requestTimeoutMs / 2, 2000),
    },
    forceCloseConnections: 'idle',
    routerOptions: { ignoreTrailingSlash: true },
    // Answered before any hook runs: our error shape and security headers are set here.
    frameworkErrors: (error, request, reply) => {
      const message = fastifyClientErrors[error.code] ?? 'The address of the request is not valid';
      void (reply as FastifyReply)
        .headers(fixedHeaders)
        .header('cache-control', 'no-store')
        .status(error.statusCode ?? 400)
        .send(localErrorReply(request, 'validation', message));
    },
  });
  limitConnections(app.server, config);
  app.setValidatorCompiler(validatorCompiler);
  // Nesting checked first: every JSON body the server takes has the same limit.
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (request, body, done) => {
    try {
      checkJsonShape(body as Buffer);
    } catch (error) {
      done(error as Error, undefined);
      return;
    }
    // Typed for a string, but secure-json-parse, under it, reads bytes as well.
    void parseJson(request, body as unknown as string, done);
  });
  app.setSerializerCompiler(serializerCompiler);

  // Added before any plugin registers a route, so the list is complete.
  const routeTable: { method: string; url: string }[] = [];
  app.decorate('routeTable', routeTable);
  app.addHook('onRoute', (route) => {
    for (const method of [route.method].flat()) routeTable.push({ method, url: route.url });
  });

  const db = createDb(
    config.database,
    // The request that meets it answers 503: only a warning here.
    (error) => app.log.warn({ err: error }, 'database connection lost'),
    config.databaseTimeouts,
    (error) => {
      app.log.fatal({ err: error }, 'an SQLite worker thread stopped: queries sent to it fail');
      options.onFatal?.(error);
    },
    sqliteThread,
  );
  app.decorate('db', db);
  app.decorate('config', config);
  // Closing while the start still waits gives up on it: an attempt would hold the pool's end for
  // up to a connect or statement timeout, and nothing was served that needs a clean end.
  const starting = new AbortController();
  app.addHook('onClose', async () => {
    const stillStarting = db.health.starting !== null;
    starting.abort(new Error('the server closed before the database was ready'));
    const destroyed = db.kysely.destroy();
    if (stillStarting) destroyed.catch(() => {});
    else await destroyed;
  });

  const mailer = await createMailer(config.mail);
  app.decorate('mailer', mailer);
  app.addHook('onClose', async () => {
    mailer?.close();
  });

  const statementPdfs = new PdfRenderer();
  app.decorate('statementPdfs', statementPdfs);
  app.addHook('onClose', async () => {
    await statementPdfs.close();
  });

  const feed = new ChangeFeed(db, app.log, {
    heartbeatMs: config.liveHeartbeatMs,
    connectTimeoutMs: config.databaseTimeouts.connectMs,
    liveSessions: async (keys) => {
      const tokenKeys = keys.filter(isTokenStreamKey);
      const sessionKeys = keys.filter((key) => !isTokenStreamKey(key));
      const [sessions, tokens] = await Promise.all([
        liveSessionUsers(db.kysely, config, sessionKeys),
        liveTokenOwners(db.kysely, tokenKeys),
      ]);
      return new Map([...sessions, ...tokens]);
    },
  });
  app.decorate('feed', feed);
  app.decorate('writes', new WritePath<WriteCommand>(db, feed, writeCommands, afterEveryChange));
  const databaseReady = (async () => {
    await migrateWhenReachable(db, app.log, starting.signal);
    await feed.start();
    starting.signal.throwIfAborted();
    db.health.starting = null;
  })();
  // Heard here so a failure before anyone awaits it is no unhandled rejection; it still rejects.
  databaseReady.catch(() => {});
  app.decorate('databaseReady', databaseReady);
  if (options.sendReminders) ReminderSender.schedule(app);
  // Live streams never end by themselves: end them first, so close() can finish the rest.
  app.addHook('preClose', async () => {
    await feed.close();
  });

  await app.register(fastifyCookie);
  // Before routing, so errors and 404s have them too.
  app.addHook('onRequest', (request, reply, done) => {
    void reply.headers(fixedHeaders);
    if (isApiPath(request.url)) void reply.header('cache-control', 'no-store');
    done();
  });
  if (config.allowedHosts.length > 0) {
    const allowed = new Set(config.allowedHosts);
    // DNS rebinding or a misrouted proxy: links and origin checks from its Host would be wrong.
    app.addHook('onRequest', async (request) => {
      if (!allowed.has(request.host.toLowerCase())) {
        throw new AppError(421, 'forbidden', 'This server does not answer for that host name');
      }
    });
  }
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

  app.setErrorHandler((error: FastifyError, request, reply) => {
    const locale = requestLocale(request);
    if (error instanceof AppError) {
      if (error.headers) void reply.headers(error.headers);
      const { message, fields } = error.in(locale);
      return reply.status(error.status).send(errorReply(error.code, message, fields));
    }
    if (hasZodFastifySchemaValidationErrors(error)) {
      const fields = validationFields(error, locale);
      const names = Object.keys(fields).join(', ');
      return reply
        .status(400)
        .send(errorReply('validation', translate(locale, 'Invalid {names}', { names }), fields));
    }
    const status = error.statusCode ?? 500;
    if (status === 413) {
      return reply
        .status(413)
        .send(localErrorReply(request, 'payload_too_large', 'The request body is too large'));
    }
    if (status >= 400 && status < 500) {
      // In our words, to be translated; Fastify's English stays in the log.
      request.log.info({ code: error.code, detail: error.message }, 'request refused');
      const message = fastifyClientErrors[error.code] ?? 'The server could not read this request';
      return reply.status(status).send(localErrorReply(request, 'validation', message));
    }
    const fault = databaseFault(error);
    if (fault === 'disk_full') {
      db.health.diskFull = true;
      request.log.error({ err: error }, 'request failed: the disk is full');
      return reply
        .status(507)
        .send(localErrorReply(request, 'disk_full', "The server's disk is full"));
    }
    if (fault === 'unavailable') {
      request.log.error({ err: error }, 'request failed: the database is unavailable');
      return reply
        .status(503)
        .header('retry-after', '5')
        .send(
          localErrorReply(
            request,
            'unavailable',
            'The database cannot be reached right now; please try again in a moment',
          ),
        );
    }
    request.log.error({ err: error }, 'request failed');
    return reply
      .status(500)
      .send(localErrorReply(request, 'internal', 'Something went wrong on the server'));
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

  app.decorateRequest('user', null);
  app.decorateRequest('sessionTokenHash', null);
  app.addHook('onRequest', rejectCrossSite);
  idempotency(app);
  // Before the routes: it collects them as they are registered.
  await openApi(app);

  await app.register(
    async (api) => {
      // First: the token's owner is the user before any route's own guard looks.
      await bearerTokens(api);
      await api.register(healthRoutes);
      await api.register(authRoutes);
      await api.register(accountRoutes);
      await api.register(forgotPasswordRoutes);
      await api.register(adminRoutes);
      await api.register(clientsRoutes);
      await api.register(ledgerRoutes);
      await api.register(overviewRoutes);
      await api.register(statementRoutes);
      await api.register(clientLinksRoutes);
      await api.register(accountLinksRoutes);
      await api.register(settingsRoutes);
      await api.register(remindersRoutes);
      await api.register(eventsRoutes);
      await api.register(transferRoutes);
      await api.register(importRoutes);
      await api.register(restoreRoutes);
      await api.register(bankRoutes);
      await api.register(tokensRoutes);
      await api.register(apiDocsRoutes);
    },
    { prefix: '/api' },
  );
  // Outside /api: a client's page, with no session, no cookie and a policy of its own.
  await app.register(clientLinkPageRoutes);

  const clientDir = options.clientDir ?? null;
  const indexHtml = clientDir ? path.join(clientDir, 'index.html') : null;
  if (clientDir && indexHtml && existsSync(indexHtml)) {
    await app.register(fastifyStatic, {
      root: clientDir,
      index: 'index.html',
      preCompressed: true,
      // The build keeps source maps for whoever runs the server, not for every visitor.
      allowedPath: (pathName: string) => !pathName.toLowerCase().endsWith('.map'),
      setHeaders: (reply: { header(name: string, value: string): unknown }, filePath: string) => {
        // Named by content hash: they never change under one name.
        const hashed = filePath.includes(`${path.sep}assets${path.sep}`);
        reply.header('cache-control', hashed ? 'public, max-age=31536000, immutable' : 'no-cache');
      },
    });
  } else if (clientDir) {
    app.log.warn({ clientDir }, 'the browser app is not built; run `npm run build`');
  }

  app.setNotFoundHandler((request, reply) => {
    const isApi = isApiPath(request.url);
    const wantsPage = request.method === 'GET' || request.method === 'HEAD';
    if (!isApi && wantsPage && clientDir && indexHtml && existsSync(indexHtml)) {
      // A screen of the single-page app: a deep link works after a reload.
      return reply.header('cache-control', 'no-cache').type('text/html').sendFile('index.html');
    }
    return reply.status(404).send(
      localErrorReply(request, 'not_found', 'No such path: {method} {url}', {
        method: request.method,
        url: request.url,
      }),
    );
  });

  if (options.waitForDatabase ?? true) {
    try {
      await databaseReady;
    } catch (error) {
      await app.close();
      throw error;
    }
  }
  return app;
}
