import { spawn, type ChildProcess } from 'node:child_process';
import net from 'node:net';
import path from 'node:path';

export const projectRoot = path.resolve(import.meta.dirname, '..');

export interface ServerProcess {
  child: ChildProcess;
  url: string;
  output(): string;
  /** Resolves with the exit code once the process has ended. */
  exited: Promise<number | null>;
}

/** A server process that may not be listening yet. */
export interface LaunchedServer {
  child: ChildProcess;
  output(): string;
  /** Resolves with the exit code once the process has ended. */
  exited: Promise<number | null>;
}

/**
 * Starts `node src/server/main.ts` as a real process, with `nodeFlags` before the file, and waits
 * for nothing: for a server that is not expected to be ready soon.
 */
export function launchServerProcess(
  env: Record<string, string>,
  nodeFlags: readonly string[] = [],
  onOutput: (output: string) => void = () => {},
): LaunchedServer {
  const child = spawn(process.execPath, [...nodeFlags, 'src/server/main.ts'], {
    cwd: projectRoot,
    env: { ...process.env, PORT: '0', LOG_LEVEL: 'info', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const exited = new Promise<number | null>((resolve) =>
    child.once('exit', (code) => resolve(code)),
  );
  const onData = (chunk: string) => {
    output += chunk;
    onOutput(output);
  };
  // Decoded by the streams: a character split between two chunks stays whole.
  child.stdout.setEncoding('utf8').on('data', onData);
  child.stderr.setEncoding('utf8').on('data', onData);
  return { child, output: () => output, exited };
}

/**
 * Starts `node src/server/main.ts` as a real process, with `nodeFlags` before the file, and waits
 * for the line it prints once it serves, as a person starting it would.
 */
export async function startServerProcess(
  env: Record<string, string>,
  nodeFlags: readonly string[] = [],
): Promise<ServerProcess> {
  let found = false;
  let resolveUrl: (url: string) => void = () => {};
  let rejectUrl: (error: Error) => void = () => {};
  const url = new Promise<string>((resolve, reject) => {
    resolveUrl = resolve;
    rejectUrl = reject;
  });
  const launched = launchServerProcess(env, nodeFlags, (output) => {
    // Searched only until found: the server logs every request, and searching all it had said
    // at every chunk took the measuring process most of a core under load.
    if (found) return;
    const match = /Balance is running at (http:\/\/127\.0\.0\.1:\d+)\n/.exec(output);
    if (match?.[1]) {
      found = true;
      resolveUrl(match[1]);
    }
  });
  void launched.exited.then((code) =>
    rejectUrl(new Error(`server exited with ${code} before listening:\n${launched.output()}`)),
  );
  return { ...launched, url: await url };
}

/** A port nothing listens on now, for a server whose address must be known before it says it. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

/** Asks the server to stop, as a service manager would, and waits until it has. */
export async function stopServer(server: ServerProcess): Promise<void> {
  server.child.kill('SIGTERM');
  await server.exited;
}

/** Runs main.ts to its end (for start-up failures) and returns its exit code and output. */
export function runServerToExit(
  env: Record<string, string>,
): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['src/server/main.ts'], {
      cwd: projectRoot,
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.once('exit', (code) => resolve({ code, output }));
  });
}
