// `npm run build`: the browser app (Vite, then a gzip and a Brotli copy of each file) and the
// server's bundle, into dist/, stamped with the hash of the sources it was built from.
import { spawnSync } from 'node:child_process';
import { build as viteBuild } from 'vite';
import { clearStamp, root, sourceHash, writeStamp } from './build-stamp.ts';

function runScript(script: string, quiet: boolean): void {
  const run = spawnSync(process.execPath, [script], {
    cwd: root,
    stdio: quiet ? ['ignore', 'pipe', 'inherit'] : 'inherit',
  });
  if (run.status !== 0) {
    if (run.stdout) process.stdout.write(run.stdout);
    throw new Error(`${script} failed`);
  }
}

/**
 * Builds dist/ and stamps it. `quiet` leaves out Vite's table of every file and the steps'
 * progress lines; warnings and errors are shown either way.
 */
export async function build({ quiet }: { quiet: boolean }): Promise<void> {
  const hash = sourceHash();
  // Taken first: a build stopped halfway must not look finished to the next start.
  clearStamp();
  await viteBuild(quiet ? { logLevel: 'warn', build: { reportCompressedSize: false } } : {});
  runScript('scripts/compress-assets.ts', quiet);
  runScript('scripts/build-server.ts', quiet);
  writeStamp(hash);
}

if (import.meta.main) await build({ quiet: false });
