import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';

export const projectRoot = path.resolve(import.meta.dirname, '..');

export interface ServerProcess {
  child: ChildProcess;
  url: string;
  output(): string;
  /** Resolves with the exit code once the process has ended. */
  exited: Promise<number | null>;
}

/**
 * Starts `node src/server/main.ts` as a real process, with `nodeFlags` before the file, and waits
 * for the line it prints once it listens, as a person starting it would.
 */
export async function startServerProcess(
  env: Record<string, string>,
  nodeFlags: readonly string[] = [],
): Promise<ServerProcess> {
  const child = spawn(process.execPath, [...nodeFlags, 'src/server/main.ts'], {
    cwd: projectRoot,
    env: { ...process.env, PORT: '0', LOG_LEVEL: 'info', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const exited = new Promise<number | null>((resolve) =>
    child.once('exit', (code) => resolve(code)),
  );
  let listening = false;
  const url = await new Promise<string>((resolve, reject) => {
    const onData = (chunk: string) => {
      output += chunk;
      // Searched only until found: the server logs every request, and searching all it had said
      // at every chunk took the measuring process most of a core under load.
      if (listening) return;
      const match = /Balance is running at (http:\/\/127\.0\.0\.1:\d+)\n/.exec(output);
      if (match?.[1]) {
        listening = true;
        resolve(match[1]);
      }
    };
    // Decoded by the streams: a character split between two chunks stays whole.
    child.stdout.setEncoding('utf8').on('data', onData);
    child.stderr.setEncoding('utf8').on('data', onData);
    void exited.then((code) =>
      reject(new Error(`server exited with ${code} before listening:\n${output}`)),
    );
  });
  return { child, url, output: () => output, exited };
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
