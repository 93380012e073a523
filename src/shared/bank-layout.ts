/**
 * The key of a bank's statement layout: a hash of its header row, each cell folded (case,
 * width, spacing, a leading byte-order mark), so the next statement of the same bank finds the
 * column mapping the owner chose for it. FNV-1a over 64 bits, not SHA-256: the browser works it
 * out, and its `crypto.subtle` exists only on HTTPS and localhost; a collision would at worst
 * offer another layout's mapping, which the owner sees before anything is read.
 */
export function bankLayoutKey(header: readonly string[]): string {
  const text = header
    .map((cell) =>
      cell
        .replace(/^\uFEFF/, '')
        .normalize('NFKC')
        .toLowerCase()
        .replace(/\s+/g, ' ')
        .trim(),
    )
    .join('\u001f');
  let hash = 0xcbf29ce484222325n;
  for (const byte of new TextEncoder().encode(text)) {
    hash ^= BigInt(byte);
    hash = (hash * 0x100000001b3n) & 0xffffffffffffffffn;
  }
  return hash.toString(16).padStart(16, '0');
}

export const bankLayoutKeyPattern = /^[0-9a-f]{16}$/;
