import { Validator } from '@seriousme/openapi-schema-validator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../../../tests/app.ts';

interface Operation {
  security?: Record<string, string[]>[];
  parameters?: { name: string; in: string }[];
  requestBody?: { content: Record<string, { schema: { properties?: Record<string, unknown> } }> };
  responses: Record<string, unknown>;
}
interface Document {
  openapi: string;
  paths: Record<string, Record<string, Operation>>;
  security: Record<string, string[]>[];
  components: { securitySchemes: Record<string, Record<string, string>> };
}

let testApp: TestApp;
let document: Document;
beforeAll(async () => {
  testApp = await buildTestApp();
  const response = await testApp.app.inject({ method: 'GET', url: '/api/openapi.json' });
  expect(response.statusCode).toBe(200);
  expect(response.headers['content-type']).toMatch(/^application\/json/);
  document = response.json<Document>();
});
afterAll(async () => {
  await testApp.close();
});

/** Fastify's `/api/clients/:id` as OpenAPI writes it: `/api/clients/{id}`. */
const openApiPath = (url: string) => url.replace(/:(\w+)/g, '{$1}');

describe('the OpenAPI document', () => {
  it('is a valid OpenAPI 3.1 document', async () => {
    expect(document.openapi).toBe('3.1.0');
    const validator = new Validator();
    const result = await validator.validate(document as unknown as Record<string, unknown>);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    // The validator does refuse a broken document, so the pass above means something.
    const { info: _info, ...withoutInfo } = document as unknown as Record<string, unknown>;
    expect((await new Validator().validate(withoutInfo)).valid).toBe(false);
  });

  it('describes every registered route, and no other', () => {
    const registered = testApp.app.registeredRoutes
      // The client link's pages (/c/...) are for people, not for programs.
      .filter((route) => route.method !== 'HEAD' && route.url.startsWith('/api/'))
      .map((route) => `${route.method} ${openApiPath(route.url)}`)
      .sort();
    const described = Object.entries(document.paths)
      .flatMap(([path, operations]) =>
        Object.keys(operations).map((method) => `${method.toUpperCase()} ${path}`),
      )
      .sort();
    expect(registered.length).toBeGreaterThan(25);
    expect(described).toEqual(registered);
  });

  it('names every path parameter of every route', () => {
    for (const [path, operations] of Object.entries(document.paths)) {
      const names = [...path.matchAll(/\{(\w+)\}/g)].map((match) => match[1]);
      for (const [method, operation] of Object.entries(operations)) {
        const parameters = (operation.parameters ?? [])
          .filter((parameter) => parameter.in === 'path')
          .map((parameter) => parameter.name);
        expect(parameters, `${method} ${path}`).toEqual(names);
      }
    }
  });

  it('offers the bearer token and the session cookie, and tokens are managed with the session only', () => {
    expect(document.components.securitySchemes.bearerToken).toMatchObject({
      type: 'http',
      scheme: 'bearer',
    });
    expect(document.components.securitySchemes.sessionCookie).toMatchObject({
      type: 'apiKey',
      in: 'cookie',
      name: 'balance_session',
    });
    expect(document.security).toEqual([{ bearerToken: [] }, { sessionCookie: [] }]);
    for (const method of ['get', 'post']) {
      expect(document.paths['/api/tokens']?.[method]?.security).toEqual([{ sessionCookie: [] }]);
    }
    expect(document.paths['/api/tokens/{id}']?.delete?.security).toEqual([{ sessionCookie: [] }]);
  });

  it('gives every JSON answer a schema the server checks it against before sending', () => {
    // The browser does not check answers again (src/client/lib/api-client.ts): the server's
    // response schemas are the only check. These routes answer something else, or nothing.
    const withoutJsonSchema = new Map([
      ['GET /api/clients', 'checked against clientListSchema as it is computed, then cached'],
      ['POST /api/clients/import', 'checked against importRowResultSchema a slice at a time'],
      ['GET /api/events', 'a stream of server-sent events'],
      ['GET /api/clients/export.csv', 'a CSV file'],
      ['GET /api/entries/export.csv', 'a CSV file'],
      ['GET /api/clients/{id}/statement.csv', 'a CSV file'],
      ['GET /api/clients/{id}/statement.pdf', 'a PDF file'],
      ['GET /api/export.json', 'a download, streamed'],
      ['GET /api/openapi.json', 'this document'],
      ['GET /api/docs', 'an HTML page'],
      ['GET /api/docs/{file}', 'a script or style sheet'],
      ['POST /api/auth/logout', '204, no body'],
      ['POST /api/auth/password-reset', '204, no body'],
      ['POST /api/account/password', '204, no body'],
      ['DELETE /api/account', '204, no body'],
      ['DELETE /api/account/sessions/{id}', '204, no body'],
      ['POST /api/admin/users/{id}/disable', '204, no body'],
      ['POST /api/admin/users/{id}/enable', '204, no body'],
      ['DELETE /api/clients/{id}', '204, no body'],
      ['DELETE /api/clients/{id}/link', '204, no body'],
      ['DELETE /api/bank/rules/{id}', '204, no body'],
      ['DELETE /api/tokens/{id}', '204, no body'],
      ['DELETE /api/book', '204, no body'],
      ['DELETE /api/book/invitations/{id}', '204, no body'],
      ['DELETE /api/book/members/{userId}', '204, no body'],
    ]);
    const unchecked: string[] = [];
    for (const [path, operations] of Object.entries(document.paths)) {
      for (const [method, operation] of Object.entries(operations)) {
        const success = Object.entries(operation.responses).filter(([status]) => /^2/.test(status));
        const hasJsonSchema = success.some(([, answer]) => {
          const content = (answer as { content?: Record<string, { schema?: unknown }> }).content;
          return content?.['application/json']?.schema !== undefined;
        });
        if (!hasJsonSchema) unchecked.push(`${method.toUpperCase()} ${path}`);
      }
    }
    expect(unchecked.sort()).toEqual([...withoutJsonSchema.keys()].sort());
  });

  it('comes from the zod schemas the routes validate with', () => {
    const body = document.paths['/api/tokens']?.post?.requestBody?.content['application/json'];
    expect(Object.keys(body?.schema.properties ?? {})).toEqual(['name', 'access', 'expiresAt']);
    const addClient =
      document.paths['/api/clients']?.post?.requestBody?.content['application/json'];
    expect(Object.keys(addClient?.schema.properties ?? {})).toEqual(
      expect.arrayContaining(['firstName', 'lastName', 'email', 'phone', 'balance', 'currency']),
    );
    const list = document.paths['/api/clients']?.get;
    expect(list?.parameters?.map((parameter) => parameter.name)).toEqual(
      expect.arrayContaining(['q', 'sort', 'limit', 'cursor']),
    );
    expect(list?.responses).toHaveProperty('429');
  });
});

describe('the API reference page', () => {
  it('loads its scripts and style from files only, within the content security policy', async () => {
    const page = await testApp.app.inject({ method: 'GET', url: '/api/docs' });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    expect(page.headers['content-security-policy']).toContain("script-src 'self'");
    // No inline script or style: every <script> has a src, and nothing sets style or on* attributes.
    const scripts = [...page.body.matchAll(/<script([^>]*)>([\s\S]*?)<\/script>/g)];
    expect(scripts.length).toBe(2);
    for (const [, attributes, content] of scripts) {
      expect(attributes).toMatch(/src="\/api\/docs\/[\w.-]+"/);
      expect(content?.trim()).toBe('');
    }
    expect(page.body).not.toMatch(/<style|\sstyle=|\son\w+=/i);

    const assetUrls = [...page.body.matchAll(/(?:src|href)="(\/api\/docs\/[\w.-]+)"/g)].map(
      (match) => match[1] ?? '',
    );
    expect(assetUrls.sort()).toEqual([
      '/api/docs/docs.js',
      '/api/docs/swagger-ui-bundle.js',
      '/api/docs/swagger-ui.css',
    ]);
    for (const url of assetUrls) {
      const asset = await testApp.app.inject({ method: 'GET', url });
      expect(asset.statusCode, url).toBe(200);
      expect(asset.headers['content-type'], url).toMatch(
        url.endsWith('.css') ? /^text\/css/ : /^text\/javascript/,
      );
      expect(asset.body.length, url).toBeGreaterThan(100);
    }
    const start = await testApp.app.inject({ method: 'GET', url: '/api/docs/docs.js' });
    expect(start.body).toContain("url: '/api/openapi.json'");
  });

  it('serves no other file', async () => {
    for (const file of ['package.json', 'index.html', '..%2Fpackage.json', 'swagger-ui.js.map']) {
      const response = await testApp.app.inject({ method: 'GET', url: `/api/docs/${file}` });
      expect(response.statusCode, file).toBe(400);
    }
  });
});
