import type { FastifyRequest } from 'fastify';
import { AppError } from '../../errors.ts';
import { isBearerOnly } from '../tokens/bearer.ts';

const safeMethods = new Set(['GET', 'HEAD', 'OPTIONS']);

/** A request with neither Sec-Fetch-Site nor Origin did not come from a browser page. */
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
