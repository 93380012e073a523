import { sessionCookieName } from '../../src/server/modules/auth/session.ts';
import { strongPassword, uniqueEmail } from '../auth.ts';

/** Joins through the real HTTP route of a running server and returns the session cookie. */
export async function joinOver(baseUrl: string, email = uniqueEmail()): Promise<string> {
  const response = await fetch(`${baseUrl}/api/auth/join`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password: strongPassword }),
  });
  if (response.status !== 201)
    throw new Error(`join failed: ${response.status} ${await response.text()}`);
  const cookie = response.headers
    .getSetCookie()
    .find((line) => line.startsWith(`${sessionCookieName}=`));
  if (!cookie) throw new Error('join set no session cookie');
  return cookie.split(';')[0] ?? '';
}

export interface Answer {
  status: number;
  body: string;
}

/** One request; a network failure is an answer too (status 0), so a run can count them. */
export async function send(
  baseUrl: string,
  method: string,
  path: string,
  cookie: string,
  body?: object,
): Promise<Answer> {
  try {
    const response = await fetch(`${baseUrl}${path}`, {
      method,
      headers: { cookie, ...(body ? { 'content-type': 'application/json' } : {}) },
      ...(body ? { body: JSON.stringify(body) } : {}),
    });
    return { status: response.status, body: await response.text() };
  } catch (error) {
    return { status: 0, body: String(error) };
  }
}
