import { setTimeout as sleep } from 'node:timers/promises';
import type { FastifyRequest } from 'fastify';
import { AppError } from '../../errors.ts';
import { emailKey, findUserById } from './accounts.queries.ts';
import { hashPassword, isCommonPassword, verifyPassword } from './password.ts';
import { countLoginAttempt, forgiveLoginAttempt, throttleKeys } from './throttle.ts';

/** Counted like a login, so someone at an unlocked screen cannot guess faster here. */
export async function confirmPassword(
  request: FastifyRequest,
  userId: string,
  password: string,
  field = 'password',
) {
  const db = request.server.db.kysely;
  const user = await findUserById(db, userId);
  if (!user) throw new AppError(401, 'unauthenticated', 'Your session has ended');
  const keys = throttleKeys(emailKey(user.email), request.ip);
  const { delayMs } = await countLoginAttempt(db, keys, Date.now());
  if (!(await verifyPassword(password, user.password_hash))) {
    if (delayMs > 0) await sleep(delayMs);
    throw new AppError(403, 'invalid_credentials', 'The password is not right', {
      fields: { [field]: 'is not right' },
    });
  }
  await forgiveLoginAttempt(db, keys);
  return user;
}

export async function hashNewPassword(
  request: FastifyRequest,
  password: string,
  field: string,
): Promise<string> {
  if (await isCommonPassword(password)) {
    throw new AppError(400, 'validation', 'Invalid password', {
      fields: { [field]: 'is one of the most common passwords; choose another' },
    });
  }
  return hashPassword(password, request.server.config.passwordHashing);
}
