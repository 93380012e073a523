import type { FastifyRequest } from 'fastify';
import { AppError } from '../../errors.ts';
import { isBearerOnly } from '../tokens/bearer.ts';

const safeMethods = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * Refuses state-changing requests that a browser made on behalf of another site. Browsers send
 * Sec-Fetch-Site and Origin on such requests; a request with neither did not come from a page.
 * A request with both a bearer token and a session cookie is checked here, then refused anyway.
 */
export async function rejectCrossSite(request: FastifyRequest): Promise<void> {
  if (safeMethods.has(request.method)) return;
  // An API client with a token is no browser page acting for someone (see isBearerOnly).
  if (isBearerOnly(request)) return;
  const fetchSite = request.headers['sec-fetch-site'];
  if (typeof fetchSite === 'string' && fetchSite !== 'same-origin' && fetchSite !== 'none') {
    throw crossSite();
  }
  const origin = request.headers.origin;
  if (typeof origin === 'string') {
    if (hostOf(origin) !== request.host) throw crossSite();
  }
}

function hostOf(origin: string): string | null {
  try {
    return new URL(origin).host;
  } catch {
    return null;
  }
}

function crossSite(): AppError {
  return new AppError(403, 'cross_site', 'Requests from other sites are not accepted');
}
