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

/**
 * An id from an address, or the not-found answer `whenMissing` makes: ids we issue are 22
 * base64url characters (above), so anything else names nothing we hold, and the database need not
 * be asked.
 */
export function checkedId(id: string, whenMissing: () => Error): string {
  if (!/^[\w-]{22}$/.test(id)) throw whenMissing();
  return id;
}
