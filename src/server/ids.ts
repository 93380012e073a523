import { randomBytes } from 'node:crypto';

/** 128 random bits, URL-safe: not guessable, not sequential. */
export function newId(): string {
  return randomBytes(16).toString('base64url');
}
