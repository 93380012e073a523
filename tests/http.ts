import type { FastifyInstance } from 'fastify';
import { expect } from 'vitest';

/** A request through app.inject() that must succeed (2xx); the failure names the answer. */
export async function injectOk(
  app: FastifyInstance,
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE',
  url: string,
  cookie: string,
  payload?: object,
) {
  const response = await app.inject({
    method,
    url,
    headers: { cookie },
    ...(payload ? { payload } : {}),
  });
  expect(response.statusCode, `${method} ${url}: ${response.body}`).toBeLessThan(300);
  return response;
}
