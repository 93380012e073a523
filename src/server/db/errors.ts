export function isUniqueViolation(error: unknown, constraintHint?: string): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const { code, message, constraint } = error as {
    code?: unknown;
    message?: unknown;
    constraint?: unknown;
  };
  const text = `${typeof message === 'string' ? message : ''} ${typeof constraint === 'string' ? constraint : ''}`;
  const unique =
    code === '23505' || // PostgreSQL unique_violation
    (typeof message === 'string' && message.includes('UNIQUE constraint failed'));
  return unique && (constraintHint === undefined || text.includes(constraintHint));
}

export function isForeignKeyViolation(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const { code, message } = error as { code?: unknown; message?: unknown };
  return (
    code === '23503' || // PostgreSQL foreign_key_violation
    (typeof message === 'string' && message.includes('FOREIGN KEY constraint failed'))
  );
}

export type DatabaseFault = 'unavailable' | 'disk_full';

// The server, not the query, is the problem: also our own statement and idle timeouts.
const pgUnavailableCodes = new Set(['57P01', '57P02', '57P03', '57P04', '53300', '57014', '25P03']);
const socketCodes = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
]);
// pg reports a lost or timed-out connection by message only.
const pgConnectionMessages = [
  'Connection terminated',
  'timeout exceeded when trying to connect',
  'Query read timeout',
  'is not queryable',
];
const sqliteBusy = 5;
const sqliteFull = 13;

export function databaseFault(error: unknown, depth = 0): DatabaseFault | null {
  if (typeof error !== 'object' || error === null || depth > 4) return null;
  const { code, errcode, message, cause, errors } = error as {
    code?: unknown;
    errcode?: unknown;
    message?: unknown;
    cause?: unknown;
    errors?: unknown;
  };
  if (code === 'ERR_SQLITE_ERROR') {
    // node:sqlite gives the primary result code in the low byte of errcode.
    const primary = typeof errcode === 'number' ? errcode & 0xff : null;
    if (primary === sqliteFull) return 'disk_full';
    if (primary === sqliteBusy) return 'unavailable';
    return null;
  }
  if (typeof code === 'string') {
    if (code === '53100') return 'disk_full'; // PostgreSQL disk_full
    if (code.startsWith('08') || pgUnavailableCodes.has(code) || socketCodes.has(code))
      return 'unavailable';
  }
  if (typeof message === 'string' && pgConnectionMessages.some((text) => message.includes(text)))
    return 'unavailable';
  if (Array.isArray(errors)) {
    for (const inner of errors as unknown[]) {
      const fault = databaseFault(inner, depth + 1);
      if (fault) return fault;
    }
  }
  return cause === undefined ? null : databaseFault(cause, depth + 1);
}
