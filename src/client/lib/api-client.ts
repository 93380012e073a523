import { errorBodySchema, type ErrorCode } from '../../shared/schemas/errors.ts';

/** An error answer of our API, or a network failure (code 'network', status 0). */
export class ApiError extends Error {
  override name = 'ApiError';
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

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

interface Parser<T> {
  parse(data: unknown): T;
}

/** Listeners told when any call answers 401, so the app can send the user to /login. */
const unauthenticatedListeners = new Set<() => void>();
export function onUnauthenticated(listener: () => void): () => void {
  unauthenticatedListeners.add(listener);
  return () => unauthenticatedListeners.delete(listener);
}

export async function apiRequest<T>(
  method: Method,
  path: string,
  options: { body?: unknown; schema: Parser<T>; signal?: AbortSignal | undefined },
): Promise<T> {
  let response: Response;
  try {
    response = await fetch(path, {
      method,
      credentials: 'same-origin',
      headers:
        options.body === undefined
          ? { accept: 'application/json' }
          : { 'content-type': 'application/json', accept: 'application/json' },
      body: options.body === undefined ? null : JSON.stringify(options.body),
      signal: options.signal ?? null,
    });
  } catch (error) {
    if (error instanceof DOMException && error.name === 'AbortError') throw error;
    throw new ApiError(0, 'network', 'The server could not be reached');
  }
  const text = await response.text();
  let data: unknown = undefined;
  if (text.length > 0) {
    try {
      data = JSON.parse(text);
    } catch {
      data = undefined;
    }
  }
  if (!response.ok) {
    const parsed = errorBodySchema.safeParse(data);
    if (response.status === 401) unauthenticatedListeners.forEach((listener) => listener());
    if (parsed.success) {
      const { code, message, fields } = parsed.data.error;
      throw new ApiError(response.status, code, message, fields);
    }
    throw new ApiError(response.status, 'internal', `The server answered ${response.status}`);
  }
  return options.schema.parse(data);
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
