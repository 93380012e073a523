// The server the end-to-end tests talk to: the real one, on a fresh SQLite file that is
// removed again when the run ends.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { serverNodeFlags } from './server-flags.ts';

const root = path.resolve(import.meta.dirname, '..');
const dataDir = mkdtempSync(path.join(os.tmpdir(), 'balance-e2e-'));

// The production bundle, as `npm start` runs it; `npm run test:e2e` builds it first.
const server = spawn(process.execPath, [...serverNodeFlags, 'dist/server/main.js'], {
  cwd: root,
  stdio: 'inherit',
  // The specs sign up a fresh owner each, all from this machine's address.
  env: {
    ...process.env,
    DATABASE_URL: path.join(dataDir, 'balance.sqlite'),
    SIGN_UPS_PER_ADDRESS_PER_HOUR: '0',
  },
});

const stop = (signal: NodeJS.Signals) => server.kill(signal);
process.once('SIGTERM', stop);
process.once('SIGINT', stop);
server.once('exit', (code) => {
  rmSync(dataDir, { recursive: true, force: true });
  process.exit(code ?? 0);
});
