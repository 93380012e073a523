import type { Server } from 'node:http';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyHttpOptions } from 'fastify';
import fp from 'fastify-plugin';
import fastifyCookie from '@fastify/cookie';
import {
  hasZodFastifySchemaValidationErrors,
  serializerCompiler,
  validatorCompiler,
} from 'fastify-type-provider-zod';
import type { Config } from '../config.ts';
import { limitConnections } from '../connection-limits.ts';
import { databaseFault } from '../db/errors.ts';
import { AppError, issueFields, unknownFieldMessage } from '../errors.ts';
import { requestLocale, translate, translateIssue, type MessageValues } from '../i18n.ts';
import type { Locale } from '../../shared/locales.ts';
import { checkJsonShape } from '../json-shape.ts';
import { secretFreeLogging } from '../log-redaction.ts';
import { proxyTrust } from '../proxy-trust.ts';
import { OneLinePerRequest } from '../request-log.ts';
import { securityHeaders } from '../security-headers.ts';

declare module 'fastify' {
  interface FastifyInstance {
    config: Config;
    /** Every route the app registered, as Fastify has it (the route table's tests compare the two). */
    registeredRoutes: ReadonlyArray<{ method: string; url: string }>;
  }
}

const bodyLimitBytes = 64 * 1024;

/** Judged as the router decodes it: `/%61pi/...` reaches the same routes as `/api/...`. */
export function isApiPath(url: string): boolean {
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

export function localErrorReply(
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
  // A key the body may not carry (a misspelt field) is named itself: answered 200 and left out,
  // what it held would be lost without a word (decision 043).
  const issues = error.validation.map((issue) => ({
    path: issue.instancePath.split('/').filter((part) => part !== ''),
    message: translateIssue(locale, issue, 'This value is invalid.'),
    code: issue.keyword,
    keys: Array.isArray(issue.params?.keys) ? issue.params.keys.map(String) : undefined,
  }));
  return issueFields(issues, {
    whole: error.validationContext ?? 'body',
    unknownField: translate(locale, unknownFieldMessage),
  });
}

/** What Fastify itself is built with: logging, limits, timeouts, and its own errors' answers. */
export function fastifyOptions(
  config: Config,
  logger: boolean | Record<string, unknown> | undefined,
): FastifyHttpOptions<Server> {
  const fixedHeaders = securityHeaders(config);
  return {
    logger:
      logger === undefined || logger === false
        ? false
        : {
            level: config.logLevel,
            ...secretFreeLogging,
            ...(typeof logger === 'object' ? logger : {}),
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
  };
}

/**
 * What every request meets whatever its route: the JSON parser and the schema compilers, the
 * security headers, the allowed host names, cookies, and the one error handler.
 */
export const core = fp<{ config: Config }>(
  async (app: FastifyInstance, { config }) => {
    const fixedHeaders = securityHeaders(config);
    app.decorate('config', config);
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
    const registeredRoutes: { method: string; url: string }[] = [];
    app.decorate('registeredRoutes', registeredRoutes);
    app.addHook('onRoute', (route) => {
      for (const method of [route.method].flat()) registeredRoutes.push({ method, url: route.url });
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
        // The database plugin's flag: a write that succeeds later clears it.
        app.db.health.diskFull = true;
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
  },
  { name: 'core' },
);
