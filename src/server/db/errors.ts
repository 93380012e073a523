/** True when the error is a unique-constraint violation, on either SQLite or PostgreSQL. */
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
