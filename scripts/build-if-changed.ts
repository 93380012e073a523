// The first half of `npm start`: builds the app only when its sources have changed since the last
// build (a full build takes about half a minute), so a start without a change answers at once.
import { buildReason, lastBuild, sourceHash } from './build-stamp.ts';

const reason = buildReason(lastBuild(), sourceHash());
if (reason !== null) {
  const started = performance.now();
  process.stdout.write(`Building Balance (${reason})...\n`);
  // Loaded only now: Vite alone takes a noticeable part of a second to load.
  const { build } = await import('./build.ts');
  await build({ quiet: true });
  process.stdout.write(`Built in ${Math.round((performance.now() - started) / 1000)} s.\n`);
}
