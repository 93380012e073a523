import { randomFillSync } from 'node:crypto';

const idBytes = 16;
// Drawn ahead, as Node does for randomUUID: one call per id held up large imports.
const idsPerDraw = 256;
const pool = Buffer.alloc(idBytes * idsPerDraw);
let used = pool.length;

/** 128 random bits: not guessable, not sequential. */
export function newId(): string {
  if (used === pool.length) {
    randomFillSync(pool);
    used = 0;
  }
  const id = pool.toString('base64url', used, used + idBytes);
  used += idBytes;
  return id;
}
