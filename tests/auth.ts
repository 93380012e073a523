import type { FastifyInstance } from 'fastify';
import { sessionCookieName } from '../src/server/modules/auth/session.ts';

let counter = 0;
/** A unique e-mail per call, so tests never collide on one database. */
export function uniqueEmail(prefix = 'owner'): string {
  counter += 1;
  return `${prefix}.${process.pid}.${Date.now()}.${counter}@example.com`;
}

export const strongPassword = 'correct horse battery staple';

/** Joins through the real route and returns the session cookie to send with later requests. */
export async function joinAs(
  app: FastifyInstance,
  email = uniqueEmail(),
  password = strongPassword,
): Promise<{ email: string; cookie: string; userId: string }> {
  const response = await app.inject({
    method: 'POST',
    url: '/api/auth/join',
    payload: { email, password },
  });
  if (response.statusCode !== 201)
    throw new Error(`join failed: ${response.statusCode} ${response.body}`);
  const token = response.cookies.find((cookie) => cookie.name === sessionCookieName)?.value;
  if (!token) throw new Error('join set no session cookie');
  const body = response.json<{ user: { id: string } }>();
  return { email, cookie: `${sessionCookieName}=${token}`, userId: body.user.id };
}
