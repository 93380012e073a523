// dist/build-stamp: a hash of everything the build read, written by scripts/build.ts once it has
// built, so `npm start` can tell whether dist/ is still the build of these sources. Kept apart
// from the build, which loads Vite, so the check alone costs a start little.
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';

export const root = path.resolve(import.meta.dirname, '..');
const stampFile = path.join(root, 'dist', 'build-stamp');
/** What the app is made of: a file in these (a test file aside) can change the build. */
const inputDirs = ['src', 'public'];
const inputFiles = [
  'index.html',
  'vite.config.ts',
  'tsconfig.json',
  'package.json',
  'package-lock.json',
  'scripts/build.ts',
  'scripts/build-stamp.ts',
  'scripts/build-server.ts',
  'scripts/compile-catalogues.ts',
  'scripts/compress-assets.ts',
];
/** What `npm start` runs and serves: a build without one of them is not whole. */
const outputs = ['dist/server/main.js', 'dist/client/index.html'];

function* filesIn(base: string, dir: string): Generator<string> {
  if (!existsSync(path.join(base, dir))) return;
  const entries = readdirSync(path.join(base, dir), { withFileTypes: true });
  for (const entry of entries.sort((a, b) => (a.name < b.name ? -1 : 1))) {
    const relative = path.join(dir, entry.name);
    if (entry.isDirectory()) yield* filesIn(base, relative);
    else if (!/\.test\.tsx?$/.test(entry.name)) yield relative;
  }
}

/**
 * A hash of the names and contents of every file the build reads. Contents, not times: a file
 * deleted, or put back as it was, counts the way it should.
 */
export function sourceHash(base = root): string {
  const hash = createHash('sha256');
  const files = [...inputDirs.flatMap((dir) => [...filesIn(base, dir)]), ...inputFiles];
  for (const file of files) {
    hash.update(`${file}\0`);
    hash.update(existsSync(path.join(base, file)) ? readFileSync(path.join(base, file)) : '-');
    hash.update('\0');
  }
  return hash.digest('hex');
}

/** What the last build left: the hash it stamped, and whether all it makes is there. */
export function lastBuild(): { stamp: string | null; whole: boolean } {
  const stamp = existsSync(stampFile) ? readFileSync(stampFile, 'utf8').trim() : null;
  return { stamp, whole: outputs.every((file) => existsSync(path.join(root, file))) };
}

/** Why dist/ must be built again for sources whose hash is `hash`; null: it need not be. */
export function buildReason(
  last: { stamp: string | null; whole: boolean },
  hash: string,
): string | null {
  if (last.stamp === null && !last.whole) return 'there is no build yet';
  if (!last.whole) return 'the last build is not whole';
  if (last.stamp !== hash) return 'the sources have changed since the last build';
  return null;
}

export function clearStamp(): void {
  rmSync(stampFile, { force: true });
}

export function writeStamp(hash: string): void {
  writeFileSync(stampFile, `${hash}\n`);
}
