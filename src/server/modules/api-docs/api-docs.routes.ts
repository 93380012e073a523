import { createReadStream } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { FastifyPluginAsync } from 'fastify';
import { apiRoutes } from '../../../shared/api-routes.ts';
import { handle } from '../../described-route.ts';
import type { z } from 'zod/mini';
import type { apiDocsAssetParams } from '../../../shared/schemas/api-docs.ts';

const swaggerUiDir = path.dirname(
  createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'),
);

const assets = {
  'swagger-ui.css': 'text/css; charset=utf-8',
  'swagger-ui-bundle.js': 'text/javascript; charset=utf-8',
  'docs.js': 'text/javascript; charset=utf-8',
} as const satisfies Record<z.output<typeof apiDocsAssetParams>['file'], string>;

/** A file of the reference page, at the address the route table gives it. */
const assetPath = (file: keyof typeof assets) => apiRoutes.apiDocsFile.path.replace(':file', file);

const page = `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <title>Balance API reference</title>
    <link rel="icon" href="/favicon.svg" type="image/svg+xml" />
    <link rel="stylesheet" href="${assetPath('swagger-ui.css')}" />
  </head>
  <body>
    <div id="api-reference"></div>
    <script src="${assetPath('swagger-ui-bundle.js')}"></script>
    <script src="${assetPath('docs.js')}"></script>
  </body>
</html>
`;

// Our content security policy allows no inline script, so Swagger UI is started by a file.
const startScript = `'use strict';
window.ui = SwaggerUIBundle({
  url: '${apiRoutes.openApiDocument.path}',
  dom_id: '#api-reference',
  deepLinking: true,
  validatorUrl: null,
  // "Try it out" with a token must not send the session cookie too: the API refuses both at once.
  requestInterceptor: function (request) {
    if (request.headers && request.headers.Authorization) request.credentials = 'omit';
    return request;
  },
});
`;

/** Public: they describe, they hold no data. */
export const apiDocsRoutes: FastifyPluginAsync = async (app) => {
  let document: string | null = null;

  handle(
    app,
    apiRoutes.openApiDocument,
    { summary: 'This OpenAPI 3.1 document', tags: ['docs'], security: [] },
    async (_request, reply) => {
      document ??= JSON.stringify(app.swagger());
      return reply.type('application/json; charset=utf-8').send(document);
    },
  );

  handle(
    app,
    apiRoutes.apiDocs,
    { summary: 'The API reference, to read in a browser', tags: ['docs'], security: [] },
    async (_request, reply) => reply.type('text/html; charset=utf-8').send(page),
  );

  handle(
    app,
    apiRoutes.apiDocsFile,
    { summary: "The reference page's style sheet and scripts", tags: ['docs'], security: [] },
    async (request, reply) => {
      const { file } = request.params;
      void reply.type(assets[file]);
      if (file === 'docs.js') return reply.send(startScript);
      // Swagger UI's files change only with its version: a browser may keep them a day.
      void reply.header('cache-control', 'public, max-age=86400');
      return reply.send(createReadStream(path.join(swaggerUiDir, file)));
    },
  );
};
