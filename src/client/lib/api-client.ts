import type { ApiAnswer, ApiCall, ApiMethod, ApiRoute } from '../../shared/api-routes.ts';
import { intlLocales } from '../../shared/locales.ts';
import { currentLocale, i18n } from '../i18n/i18n.ts';
import { errorCodes, type ErrorCode } from '../../shared/error-codes.ts';
import type { ErrorBody } from '../../shared/schemas/errors.ts';

/** An error answer of our API, or a network failure (code 'network', status 0). */
export class ApiError extends Error {
  override name = 'ApiError'; // i18n-ignore: the error's class, for developers
  readonly status: number;
  readonly code: ErrorCode | 'network';
  readonly fields: Record<string, string>;

  constructor(
    status: number,
    code: ErrorCode | 'network',
    message: string,
    fields: Record<string, string> = {},
  ) {
    super(message);
    this.status = status;
    this.code = code;
    this.fields = fields;
  }
}

/** Listeners told when any call answers 401, so the app can send the user to /login. */
const unauthenticatedListeners = new Set<() => void>();
export function onUnauthenticated(listener: () => void): () => void {
  unauthenticatedListeners.add(listener);
  return () => unauthenticatedListeners.delete(listener);
}

/**
 * Listeners told when any call answers 403: the person's role in the book, or their membership,
 * may have changed since the session was read (an owner removed them), so it is asked again.
 */
const forbiddenListeners = new Set<() => void>();
export function onForbidden(listener: () => void): () => void {
  forbiddenListeners.add(listener);
  return () => forbiddenListeners.delete(listener);
}

/** 128 random bits; crypto.randomUUID() would be shorter but exists only on HTTPS and localhost. */
function newIdempotencyKey(): string {
  return Array.from(crypto.getRandomValues(new Uint8Array(16)), (byte) =>
    byte.toString(16).padStart(2, '0'),
  ).join('');
}

/** A POST whose answer was lost is sent again this many times, with the same Idempotency-Key. */
const postRetries = 2;
const retryDelayMs = 500;

/**
 * The error an answer carries, if it has the shape of our API's errors. Checked by hand: the
 * answer may come from something in front of the server (a proxy's HTML page), and the check is
 * too small to be worth a schema library on the first page. A code this page does not know (a
 * newer server's) keeps its message and counts as 'internal'.
 */
function readErrorBody(data: unknown): ErrorBody['error'] | null {
  if (typeof data !== 'object' || data === null || !('error' in data)) return null;
  const error: unknown = data.error;
  if (typeof error !== 'object' || error === null) return null;
  if (!('code' in error) || typeof error.code !== 'string') return null;
  if (!('message' in error) || typeof error.message !== 'string') return null;
  const code = errorCodes.find((known) => known === error.code) ?? 'internal';
  const fields: unknown = 'fields' in error ? error.fields : undefined;
  if (fields === undefined) return { code, message: error.message };
  if (typeof fields !== 'object' || fields === null || Array.isArray(fields)) return null;
  const entries = Object.entries(fields);
  if (!entries.every((entry): entry is [string, string] => typeof entry[1] === 'string'))
    return null;
  return { code, message: error.message, fields: Object.fromEntries(entries) };
}

/**
 * An answer's body as `T`, or the ApiError it stands for: the error it carries when it is not a
 * success; for a success, 204 is the one without a body, and every other must carry JSON (not a
 * proxy's or a captive portal's page). Used by callApi and by uploads that report progress.
 */
export function readAnswer<T>(status: number, text: string): T {
  let data: unknown = undefined;
  if (text.length > 0) {
    try {
      data = JSON.parse(text);
    } catch {
      data = undefined;
    }
  }
  if (status < 200 || status > 299) {
    const error = readErrorBody(data);
    if (error) throw new ApiError(status, error.code, error.message, error.fields);
    throw new ApiError(status, 'internal', i18n._('common.server-answered', { status }));
  }
  if (status === 204) return undefined as T;
  if (data === undefined || data === null) {
    throw new ApiError(status, 'internal', i18n._('common.unreadable-answer'));
  }
  return data as T;
}

/** What a call may add to its route's parameters, body and query. */
interface CallOptions {
  signal?: AbortSignal | undefined;
}

/** A route's call: optional when the route has no parameter, body or query to send. */
type CallArguments<Route extends ApiRoute> =
  object extends ApiCall<Route>
    ? [call?: ApiCall<Route> & CallOptions]
    : [call: ApiCall<Route> & CallOptions];

/** ApiCall has typed the call for its route; filling it in needs only its parts. */
type AnyCall = CallOptions & {
  params?: Record<string, string | number>;
  query?: Record<string, string | undefined>;
  body?: unknown;
};

/**
 * The address of one call: the path with its parameters filled in (encoded), then the query's
 * values that are set (an empty one is left out, as an empty search box means no search).
 */
function addressOf(path: string, { params = {}, query = {} }: AnyCall): string {
  const filled = path.replace(/:(\w+)/g, (_match, name: string) => {
    const value = params[name];
    if (value === undefined) throw new Error(`no value for :${name} in ${path}`);
    return encodeURIComponent(value);
  });
  const search = new URLSearchParams(
    Object.entries(query).filter(
      (entry): entry is [string, string] => entry[1] !== undefined && entry[1] !== '',
    ),
  );
  return search.size > 0 ? `${filled}?${search.toString()}` : filled;
}

/** The address of a route's call, for a link or a download that the browser makes itself. */
export function apiAddress<Route extends ApiRoute>(
  route: Route,
  ...[call]: CallArguments<Route>
): string {
  return addressOf(route.path, call ?? {});
}

/**
 * Calls one route of `apiRoutes` (src/shared/api-routes.ts) and gives its answer as the type of
 * the route's answer schema, so a wrong path, body or answer type does not compile. The answer is
 * not checked again here: the server checks every answer against that schema before sending it,
 * and the app is served by the same server, so a second check in the browser would only cost the
 * first page its size (decision 013). A success that is not JSON (a proxy's page in front of the
 * server) is still refused (readAnswer).
 */
export function callApi<Route extends ApiRoute>(
  route: Route,
  ...[call]: CallArguments<Route>
): Promise<ApiAnswer<Route>> {
  const parts = (call ?? {}) as AnyCall;
  // The server checked the answer against the route's schema (above).
  return send(route.method, addressOf(route.path, parts), parts) as Promise<ApiAnswer<Route>>;
}

async function send(
  method: ApiMethod,
  path: string,
  options: { body?: unknown; signal?: AbortSignal | undefined },
): Promise<unknown> {
  // The server keeps the first answer to each key, so a POST sent again after its answer was lost
  // (a dropped connection, a flaky phone network) is answered, not done twice.
  const idempotencyKey = method === 'POST' ? newIdempotencyKey() : null;
  // The server answers its messages in the language the app is shown in.
  const headers: Record<string, string> = {
    accept: 'application/json',
    'accept-language': intlLocales[currentLocale()],
  };
  if (options.body !== undefined) headers['content-type'] = 'application/json';
  if (idempotencyKey) headers['idempotency-key'] = idempotencyKey;
  let response: Response | null = null;
  for (let attempt = 0; response === null; attempt += 1) {
    try {
      response = await fetch(path, {
        method,
        credentials: 'same-origin',
        headers,
        body: options.body === undefined ? null : JSON.stringify(options.body),
        signal: options.signal ?? null,
      });
    } catch (error) {
      // Cancelled by the caller (the page moved on): not a failure to report or retry.
      if (options.signal?.aborted) throw error;
      if (!idempotencyKey || attempt >= postRetries) {
        throw new ApiError(0, 'network', i18n._('common.unreachable'));
      }
      await new Promise((resolve) => setTimeout(resolve, retryDelayMs * (attempt + 1)));
    }
  }
  const text = await response.text();
  if (response.status === 401) unauthenticatedListeners.forEach((listener) => listener());
  if (response.status === 403) forbiddenListeners.forEach((listener) => listener());
  return readAnswer(response.status, text);
}

/** Hands each field the server named to the form, for the fields the form has. */
export function setServerFieldErrors<Name extends string>(
  error: ApiError,
  formFields: readonly Name[],
  setError: (name: Name, error: { type: 'server'; message: string }) => void,
): void {
  for (const [name, message] of Object.entries(error.fields)) {
    const field = formFields.find((candidate) => candidate === name);
    if (field) setError(field, { type: 'server', message });
  }
}
