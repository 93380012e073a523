import type { ErrorCode } from '../shared/schemas/errors.ts';

export type { ErrorCode };

/** The one error type routes throw; the error handler turns it into `{ error: { code, message } }`. */
export class AppError extends Error {
  override name = 'AppError';
  readonly status: number;
  readonly code: ErrorCode;
  readonly fields: Record<string, string> | undefined;
  readonly headers: Record<string, string> | undefined;

  constructor(
    status: number,
    code: ErrorCode,
    message: string,
    extra: { fields?: Record<string, string>; headers?: Record<string, string> } = {},
  ) {
    super(message);
    this.status = status;
    this.code = code;
    this.fields = extra.fields;
    this.headers = extra.headers;
  }
}

export const notFound = (what = 'Not found') => new AppError(404, 'not_found', what);
export const unauthenticated = () =>
  new AppError(401, 'unauthenticated', 'You are not signed in, or your session has ended');
