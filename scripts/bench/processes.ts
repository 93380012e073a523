import { spawn, type ChildProcess } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

export const projectRoot = path.resolve(import.meta.dirname, '../..');

/** Every child we started, so an early exit or a failure can still end them all. */
const running = new Set<ChildProcess>();

export function killAllChildren(): void {
  for (const child of running) {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  }
  running.clear();
}

/** A free port on 127.0.0.1, chosen by the kernel; the child binds it a moment later. */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  if (address === null || typeof address === 'string') throw new Error('no port assigned');
  return address.port;
}

export interface NodeProcess {
  name: string;
  pid: number;
  url: string;
  /** Milliseconds from spawn to the first 200 answer of the ready path. */
  startMs: number;
  output(): string;
  stop(): Promise<void>;
}

const startTimeoutMs = 30_000;

/**
 * Starts a .ts or .js file on this very Node binary (the project's Node 24), with `nodeFlags`
 * before it, and polls `readyPath` until it answers 200. The port is picked here because at
 * LOG_LEVEL=warn Fastify does not print "Server listening at".
 */
export async function startNode(
  name: string,
  script: string,
  env: Record<string, string>,
  readyPath: string,
  nodeFlags: readonly string[] = [],
): Promise<NodeProcess> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const started = performance.now();
  const child = spawn(process.execPath, [...nodeFlags, script], {
    cwd: projectRoot,
    env: { ...process.env, ...env, HOST: '127.0.0.1', PORT: String(port) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  running.add(child);
  let output = '';
  const collect = (chunk: Buffer) => {
    output += chunk.toString();
    if (output.length > 100_000) output = output.slice(-50_000);
  };
  child.stdout.on('data', collect);
  child.stderr.on('data', collect);
  const exited = new Promise<number | null>((resolve) => {
    child.once('exit', (code) => {
      running.delete(child);
      resolve(code);
    });
  });
  let hasExited = false;
  void exited.then(() => (hasExited = true));

  const stop = async () => {
    if (hasExited) return;
    child.kill('SIGTERM');
    const timer = sleep(10_000).then(() => 'timeout' as const);
    if ((await Promise.race([exited, timer])) === 'timeout') {
      child.kill('SIGKILL');
      await exited;
    }
  };

  for (;;) {
    if (hasExited) throw new Error(`${name} exited before answering:\n${output}`);
    if (performance.now() - started > startTimeoutMs) {
      await stop();
      throw new Error(
        `${name} did not answer ${readyPath} within ${startTimeoutMs} ms:\n${output}`,
      );
    }
    try {
      const response = await fetch(url + readyPath, { signal: AbortSignal.timeout(2000) });
      await response.arrayBuffer();
      if (response.status === 200) break;
    } catch {
      // Not listening yet.
    }
    await sleep(5);
  }
  const startMs = performance.now() - started;
  if (child.pid === undefined) throw new Error(`${name} has no pid`);
  return { name, pid: child.pid, url, startMs, output: () => output, stop };
}

/** Resident memory of a process in MB, from /proc (Linux only); null elsewhere. */
export function rssMb(pid: number | 'self'): number | null {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const match = /^VmRSS:\s+(\d+) kB/m.exec(status);
    return match?.[1] ? Number(match[1]) / 1024 : null;
  } catch {
    return null;
  }
}

/**
 * The resident memory of a process and of every process it started, and theirs: a server whose
 * PDFs are made in child processes (decision 037) uses their memory as much as its own.
 */
export function treeRssMb(pid: number): number | null {
  const own = rssMb(pid);
  if (own === null) return null;
  let children: number[] = [];
  try {
    children = readdirSync(`/proc/${pid}/task`).flatMap((task) =>
      readFileSync(`/proc/${pid}/task/${task}/children`, 'utf8')
        .split(' ')
        .filter((id) => id.trim() !== '')
        .map(Number),
    );
  } catch {
    // Gone meanwhile: its own figure stands.
  }
  return children.reduce((sum, child) => sum + (treeRssMb(child) ?? 0), own);
}

/** The soft limit on open files of a process (each live stream holds one socket); null if unknown. */
export function openFileLimit(pid: number | 'self'): number | null {
  try {
    const limits = readFileSync(`/proc/${pid}/limits`, 'utf8');
    const match = /^Max open files\s+(\d+|unlimited)/m.exec(limits);
    if (!match?.[1]) return null;
    return match[1] === 'unlimited' ? Infinity : Number(match[1]);
  } catch {
    return null;
  }
}
