import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { serverNodeFlags } from '../scripts/server-flags.ts';
import { testDialect } from './db.ts';
import { projectRoot, startServerProcess, stopServer } from './server-process.ts';

const hasProc = existsSync('/proc/self/task');
if (testDialect === 'sqlite' && !hasProc) {
  // Said in the output, as a skipped test is only counted there.
  process.stdout.write(
    '[balance] tests/server-flags.test.ts: the count of V8 helper threads is SKIPPED: it reads /proc (Linux only).\n',
  );
}

/** The names of a process's threads, from /proc (Linux); a thread that ends meanwhile is left out. */
function threadNames(pid: number): string[] {
  return readdirSync(`/proc/${pid}/task`).flatMap((task) => {
    try {
      return [readFileSync(`/proc/${pid}/task/${task}/comm`, 'utf8').trim()];
    } catch {
      return [];
    }
  });
}

async function helperThreadsOfServer(nodeFlags: readonly string[]): Promise<number> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'balance-flags-'));
  // NODE_OPTIONS could set the pool size itself: only the flags given here count.
  const server = await startServerProcess(
    { DATABASE_URL: path.join(dir, 'balance.sqlite'), NODE_OPTIONS: '' },
    nodeFlags,
  );
  try {
    if (server.child.pid === undefined) throw new Error('the server has no pid');
    // V8 starts its helpers with the process, before any of the server's code runs.
    return threadNames(server.child.pid).filter((name) => name === 'V8Worker').length;
  } finally {
    await stopServer(server);
    await rm(dir, { recursive: true, force: true });
  }
}

describe('how the server is started', () => {
  it('npm start runs the bundle with the flags of scripts/server-flags.ts', () => {
    const packageJson = JSON.parse(
      readFileSync(path.join(projectRoot, 'package.json'), 'utf8'),
    ) as {
      scripts: Record<string, string>;
    };
    expect(packageJson.scripts.start).toBe(
      `node scripts/build-if-changed.ts && node ${serverNodeFlags.join(' ')} dist/server/main.js`,
    );
  });

  // The helper threads collect garbage for every thread of the process; more of them than the
  // one here let the SQLite writer's collections take the request thread's core (decision 016).
  describe.runIf(testDialect === 'sqlite')('its V8 helper threads (SQLite only)', () => {
    it.skipIf(!hasProc)(
      'are one with those flags, and more without (reads /proc: Linux)',
      async () => {
        expect(await helperThreadsOfServer(serverNodeFlags)).toBe(1);
        expect(await helperThreadsOfServer([])).toBeGreaterThan(1);
      },
    );
  });
});
