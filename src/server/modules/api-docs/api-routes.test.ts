import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod/mini';
import { apiRoutes, pageRoutes, type Route } from '../../../shared/api-routes.ts';
import { buildTestApp, type TestApp } from '../../../../tests/app.ts';
import { schemaModules } from '../../described-route.ts';

interface Operation {
  parameters?: { name: string; in: string }[];
  requestBody?: { content: Record<string, { schema: unknown }> };
  responses: Record<string, { content?: Record<string, { schema: unknown }> }>;
}

let testApp: TestApp;
let paths: Record<string, Record<string, Operation>>;
beforeAll(async () => {
  testApp = await buildTestApp();
  const response = await testApp.app.inject({ method: 'GET', url: '/api/openapi.json' });
  paths = response.json<{ paths: typeof paths }>().paths;
});
afterAll(async () => {
  await testApp.close();
});

const described: [string, Route][] = [...Object.entries(apiRoutes), ...Object.entries(pageRoutes)];
const apiEntries = Object.entries(apiRoutes) as [string, Route][];

/** A schema as the OpenAPI document writes it. */
const jsonSchema = (schema: z.ZodMiniType | undefined, io: 'input' | 'output') => {
  if (!schema) return undefined;
  const { $schema: _dialect, ...rest } = z.toJSONSchema(schema, { target: 'draft-2020-12', io });
  return rest;
};

describe('the route table (src/shared/api-routes.ts)', () => {
  it('holds every route the server registers, and the server registers every route it holds', () => {
    const registered = testApp.app.registeredRoutes
      // Fastify answers HEAD for each GET by itself.
      .filter((route) => route.method !== 'HEAD')
      .map((route) => `${route.method} ${route.url}`)
      .sort();
    const inTable = described.map(([, route]) => `${route.method} ${route.path}`).sort();
    expect(inTable.length).toBeGreaterThan(40);
    expect(registered).toEqual(inTable);
  });

  it.each(apiEntries)('%s: publishes the schemas of its description', (_name, route) => {
    const operation = paths[route.path.replace(/:(\w+)/g, '{$1}')]?.[route.method.toLowerCase()];
    expect(operation).toBeDefined();
    const schemas = route.schemas?.(schemaModules) ?? {};
    const checked = route.checkedByHandler ?? [];
    const queryNames = (operation?.parameters ?? [])
      .filter((parameter) => parameter.in === 'query')
      .map((parameter) => parameter.name);
    const published = {
      body: operation?.requestBody?.content['application/json']?.schema,
      query: queryNames.length > 0 ? queryNames : undefined,
      answer: Object.entries(operation?.responses ?? {}).find(([status]) =>
        /^2\d\d$/.test(status),
      )?.[1].content?.['application/json']?.schema,
    };
    const expected = {
      body: checked.includes('body') ? undefined : jsonSchema(schemas.body, 'input'),
      query: schemas.query && Object.keys(jsonSchema(schemas.query, 'input')?.properties ?? {}),
      answer: checked.includes('answer') ? undefined : jsonSchema(schemas.answer, 'output'),
    };
    expect(published).toEqual(expected);
  });
});
