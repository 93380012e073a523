import { argon2, randomBytes, timingSafeEqual } from 'node:crypto';
import { availableParallelism } from 'node:os';
import { promisify } from 'node:util';
import type { PasswordHashParams } from '../../config.ts';
import { AppError } from '../../errors.ts';
import { passwordMinLength } from '../../../shared/schemas/auth.ts';

const argon2Async = promisify(argon2);

type Params = PasswordHashParams;

const tagLength = 32;
const saltLength = 16;

/** The same password typed on two devices may arrive composed or decomposed. */
const normalize = (password: string) => password.normalize('NFC');

// Past a short line, 503 rather than piling up memory and making logins wait behind sign-ups.
export const hashingLimits = { running: Math.max(1, availableParallelism()), waiting: 32 };
let running = 0;
const waiting: (() => void)[] = [];

async function withHashingSlot<T>(work: () => Promise<T>): Promise<T> {
  if (running >= hashingLimits.running) {
    if (waiting.length >= hashingLimits.waiting) {
      throw new AppError(503, 'unavailable', 'The server is busy; please try again in a moment', {
        headers: { 'retry-after': '2' },
      });
    }
    await new Promise<void>((resolve) => waiting.push(resolve));
  } else {
    running += 1;
  }
  try {
    return await work();
  } finally {
    const next = waiting.shift();
    if (next) next();
    else running -= 1;
  }
}

async function derive(password: string, salt: Buffer, params: Params): Promise<Buffer> {
  return withHashingSlot(() =>
    argon2Async('argon2id', {
      message: normalize(password),
      nonce: salt,
      parallelism: params.parallelism,
      memory: params.memory,
      passes: params.passes,
      tagLength,
    }),
  );
}

/** A PHC string: the parameters travel with the hash, so they can be raised later. */
export async function hashPassword(password: string, params: Params): Promise<string> {
  const salt = randomBytes(saltLength);
  const hash = await derive(password, salt, params);
  const { memory, passes, parallelism } = params;
  return `$argon2id$v=19$m=${memory},t=${passes},p=${parallelism}$${salt.toString('base64url')}$${hash.toString('base64url')}`;
}

function parseHash(stored: string): { params: Params; salt: Buffer; hash: Buffer } | null {
  const match = /^\$argon2id\$v=19\$m=(\d+),t=(\d+),p=(\d+)\$([\w-]+)\$([\w-]+)$/.exec(stored);
  if (!match) return null;
  const [, memory, passes, parallelism, salt, hash] = match;
  return {
    params: { memory: Number(memory), passes: Number(passes), parallelism: Number(parallelism) },
    salt: Buffer.from(salt ?? '', 'base64url'),
    hash: Buffer.from(hash ?? '', 'base64url'),
  };
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const parsed = parseHash(stored);
  if (!parsed) return false;
  const candidate = await derive(password, parsed.salt, parsed.params);
  return candidate.length === parsed.hash.length && timingSafeEqual(candidate, parsed.hash);
}

export function needsRehash(stored: string, current: Params): boolean {
  const parsed = parseHash(stored);
  if (!parsed) return true;
  const { memory, passes, parallelism } = parsed.params;
  return memory < current.memory || passes < current.passes || parallelism !== current.parallelism;
}

const dummyHashes = new Map<string, Promise<string>>();
/** Verifying against this when the e-mail is unknown makes both failures take the same time. */
export function hashForUnknownUser(params: Params): Promise<string> {
  const key = `${params.memory},${params.passes},${params.parallelism}`;
  let dummy = dummyHashes.get(key);
  if (!dummy) {
    dummy = hashPassword(randomBytes(24).toString('base64url'), params);
    dummyHashes.set(key, dummy);
  }
  return dummy;
}

let commonPasswords: Promise<Set<string>> | null = null;
// Loaded at the first sign-up, not at start: a few megabytes most instances rarely need.
export async function isCommonPassword(password: string): Promise<boolean> {
  commonPasswords ??= import('@zxcvbn-ts/language-common').then(
    ({ dictionary }) =>
      new Set(
        dictionary['passwords-common']
          .filter((word) => word.length >= passwordMinLength)
          .map((word) => word.toLowerCase()),
      ),
  );
  return (await commonPasswords).has(normalize(password).toLowerCase());
}
