import { randomFillSync } from 'node:crypto';

const idBytes = 16;
/** Random bytes drawn ahead for this many ids: one call to the system's generator instead of one per id. */
const idsPerDraw = 256;
const pool = Buffer.alloc(idBytes * idsPerDraw);
let used = pool.length;

/**
 * 128 random bits, URL-safe: not guessable, not sequential. The bits come from the same
 * cryptographic generator, drawn for 256 ids at a time (as Node does for randomUUID): an import
 * of 20,000 clients asked for them one by one and held the request thread for about 60 ms.
 */
export function newId(): string {
  if (used === pool.length) {
    randomFillSync(pool);
    used = 0;
  }
  const id = pool.toString('base64url', used, used + idBytes);
  used += idBytes;
  return id;
}
