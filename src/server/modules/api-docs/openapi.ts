import fastifySwagger from '@fastify/swagger';
import type { FastifyInstance } from 'fastify';
import { jsonSchemaTransform } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorBodySchema } from '../../../shared/schemas/errors.ts';
import { sessionCookieName } from '../auth/session.ts';

const description = `The HTTP API of this Balance server: the same routes its web app uses.

**Authentication.** A script sends \`Authorization: Bearer bal_...\` with a personal access token,
made on the web app's *API tokens* page (Settings → API tokens). A token acts as its owner; a
read-only one is refused (403) on every request but GET and HEAD. A request carrying both a session
cookie and a bearer token is refused (400). Tokens are created, listed and revoked only from a
signed-in session, never with a token. A revoked or expired token is refused (401) at once.

**Limits.** Each token may make a set number of requests a minute (TOKEN_REQUESTS_PER_MINUTE,
600 by default); past it the answer is 429 with \`Retry-After\` in seconds. A change (a POST,
PUT, PATCH or DELETE) may also be answered 429 when too many of the account's changes are waiting
for their turn at once (on PostgreSQL, after 5 s): send fewer at a time.

**Errors** have one shape: \`{ "error": { "code", "message", "fields"? } }\`, \`fields\` naming each
invalid input.`;

const { $schema: _dialect, ...errorJsonSchema } = z.toJSONSchema(errorBodySchema, {
  target: 'draft-2020-12',
  io: 'output',
});
const errorResponse = {
  description: 'An error: { error: { code, message, fields? } }',
  ...errorJsonSchema,
};

const tagOf: Record<string, string> = {
  ageing: 'clients',
  entries: 'transfer',
  export: 'transfer',
  restore: 'transfer',
};

const tooManyResponse = {
  ...errorResponse,
  description:
    'Too many requests with this token (or logins, sign-ups, live streams, changes waiting): wait',
  headers: {
    'retry-after': { type: 'integer', description: 'Seconds to wait before trying again' },
  },
};

/** Registered before any route, so it sees them all. */
export async function openApi(app: FastifyInstance): Promise<void> {
  await app.register(fastifySwagger, {
    openapi: {
      openapi: '3.1.0',
      info: { title: 'Balance API', version: '1', description },
      components: {
        securitySchemes: {
          bearerToken: {
            type: 'http',
            scheme: 'bearer',
            description: 'A personal access token, bal_ followed by 43 characters',
          },
          sessionCookie: {
            type: 'apiKey',
            in: 'cookie',
            name: sessionCookieName,
            description: "The web app's session (sign in at /login); never together with a token",
          },
        },
      },
      security: [{ bearerToken: [] }, { sessionCookie: [] }],
    },
    transform: (input) => {
      const transformed = jsonSchemaTransform(input);
      const schema = (transformed.schema ?? {}) as Record<string, unknown>;
      if (schema.hide) return transformed;
      const segment = /^\/api\/([^/.]+)/.exec(input.url)?.[1] ?? 'api';
      const response = (schema.response ?? {}) as Record<string, unknown>;
      // A route that declares no answer of its own (a download, the live stream, a 204).
      if (!Object.keys(response).some((status) => status.startsWith('2')))
        response['2XX'] = { description: 'Success: see the summary', type: 'null' };
      return {
        url: transformed.url,
        schema: {
          tags: [tagOf[segment] ?? segment],
          ...schema,
          response: {
            ...response,
            '429': tooManyResponse,
            '4XX': errorResponse,
            '5XX': errorResponse,
          },
        },
      };
    },
  });
}
