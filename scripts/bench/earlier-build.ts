// The server as it was before SQLite moved off the request thread, built from this repository's
// own history and measured in the same run as today's: the target for durable balance changes
// is a multiple of what they were on the same machine, and a machine twice as fast makes both
// figures twice as large. At that commit each write committed and synced on the request thread,
// one sync per write (docs/performance.md, "The earlier build").
import { spawnSync } from 'node:child_process';
import { mkdirSync, symlinkSync } from 'node:fs';
import path from 'node:path';
import { importBody } from './blocking.ts';
import { projectRoot } from './processes.ts';
import { joinOwner } from './seed.ts';
import type { TrackedClient } from './live.ts';

/** The commit whose bench measured the rate the target multiplies, before the worker threads. */
const earlierCommit = '130d67581b4d0d19dbf2e248c44d2c6a5614efa5';
export const earlierCommitShort = earlierCommit.slice(0, 7);

/**
 * Writes that commit's files into `dir` and bundles its server there, on today's installed
 * packages (that commit's are a subset of them). Returns the bundle's path, or why it cannot be
 * built here: a checkout without that history (a shallow clone, a copy without `.git`), or
 * packages that no longer build it.
 */
export function buildEarlierServer(dir: string): { script: string } | { skipped: string } {
  return buildServerAt(earlierCommit, dir);
}

/** The same for any commit of this checkout (the list page's bench compares its parent's). */
export function buildServerAt(
  commit: string,
  dir: string,
): { script: string } | { skipped: string } {
  const git = (args: string[]) =>
    spawnSync('git', args, { cwd: projectRoot, maxBuffer: 256 * 2 ** 20 });
  const known = git(['cat-file', '-e', `${commit}^{commit}`]);
  if (known.error) return { skipped: `git is not available (${known.error.message})` };
  if (known.status !== 0) {
    return { skipped: `commit ${commit.slice(0, 7)} is not in this checkout (a shallow clone?)` };
  }
  const archive = git(['archive', '--format=tar', commit]);
  if (archive.status !== 0) throw new Error(`git archive failed: ${archive.stderr.toString()}`);
  mkdirSync(dir, { recursive: true });
  const unpack = spawnSync('tar', ['-x', '-C', dir], { input: archive.stdout });
  if (unpack.status !== 0) throw new Error(`tar failed: ${unpack.stderr.toString()}`);
  symlinkSync(path.join(projectRoot, 'node_modules'), path.join(dir, 'node_modules'), 'dir');
  const build = spawnSync(process.execPath, ['scripts/build-server.ts'], {
    cwd: dir,
    stdio: ['ignore', 2, 2],
  });
  if (build.status !== 0) return { skipped: `its server did not build (exit ${build.status})` };
  return { script: path.join(dir, 'dist/server/main.js') };
}

interface ListPage {
  clients: TrackedClient[];
  nextCursor: string | null;
}

/**
 * An owner on the earlier server with `count` clients, written by that server's own import (its
 * tables are not today's, so the bench's seed cannot write them), and each client's id and
 * version as its list gives them.
 */
export async function seedEarlierServer(
  baseUrl: string,
  count: number,
): Promise<{ cookie: string; clients: TrackedClient[] }> {
  const { cookie } = await joinOwner(baseUrl);
  // That server's own limit on the rows of one import.
  const rowsPerImport = 20_000;
  for (let round = 0; round * rowsPerImport < count; round++) {
    const rows = Math.min(rowsPerImport, count - round * rowsPerImport);
    const response = await fetch(`${baseUrl}/api/clients/import`, {
      method: 'POST',
      headers: { cookie, 'content-type': 'application/json' },
      body: importBody(rows, round),
    });
    const text = await response.text();
    if (response.status !== 200) throw new Error(`import answered ${response.status}: ${text}`);
  }
  const clients: TrackedClient[] = [];
  let cursor: string | null = null;
  do {
    const query: string = cursor ? `&cursor=${encodeURIComponent(cursor)}` : '';
    const response = await fetch(`${baseUrl}/api/clients?limit=200${query}`, {
      headers: { cookie },
    });
    if (response.status !== 200) throw new Error(`list answered ${response.status}`);
    const page = (await response.json()) as ListPage;
    for (const { id, version } of page.clients) clients.push({ id, version });
    cursor = page.nextCursor;
  } while (cursor);
  if (clients.length !== count)
    throw new Error(`seeded ${count} clients, listed ${clients.length}`);
  return { cookie, clients };
}
