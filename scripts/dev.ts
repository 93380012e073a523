// `npm run dev`: the API server, restarted on every change, beside Vite's dev server,
// which proxies /api to it. Open http://127.0.0.1:5173.
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const viteBin = path.join(root, 'node_modules', 'vite', 'bin', 'vite.js');

const children: ChildProcess[] = [
  spawn(
    process.execPath,
    ['--watch-path=src/server', '--watch-path=src/shared', 'src/server/main.ts'],
    {
      cwd: root,
      stdio: 'inherit',
    },
  ),
  spawn(process.execPath, [viteBin, '--host', '127.0.0.1'], { cwd: root, stdio: 'inherit' }),
];

let stopping = false;
function stopAll(code: number) {
  if (stopping) return;
  stopping = true;
  for (const child of children) child.kill('SIGTERM');
  process.exitCode = code;
}
for (const child of children) child.once('exit', (code) => stopAll(code ?? 0));
process.once('SIGINT', () => stopAll(0));
process.once('SIGTERM', () => stopAll(0));
