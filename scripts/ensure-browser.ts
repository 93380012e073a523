// Makes sure a Chromium is there for the end-to-end tests, installing Debian's when it can.
import { execFileSync, spawnSync } from 'node:child_process';
import { chromiumPath, hasChromium } from './browser.ts';

function canInstallWithApt(): boolean {
  const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
  return isRoot && spawnSync('sh', ['-c', 'command -v apt-get'], { stdio: 'ignore' }).status === 0;
}

if (hasChromium()) {
  process.stdout.write(`[balance] Chromium found at ${chromiumPath()}\n`);
} else if (!process.env.CHROMIUM_PATH && canInstallWithApt()) {
  process.stdout.write(
    "[balance] Chromium not found; installing Debian's chromium package (about 30 s)\n",
  );
  execFileSync('apt-get', ['update', '-qq'], { stdio: 'inherit' });
  execFileSync('apt-get', ['install', '-y', '-qq', 'chromium'], {
    stdio: 'inherit',
    env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
  });
  if (!hasChromium()) {
    process.stderr.write(`[balance] apt-get finished but ${chromiumPath()} is still missing\n`);
    process.exit(1);
  }
} else {
  process.stderr.write(
    `[balance] No Chromium at ${chromiumPath()}. The end-to-end tests need one:\n` +
      "  install your system's chromium package (Debian/Ubuntu: apt-get install chromium),\n" +
      '  or set CHROMIUM_PATH to a Chromium or Chrome executable.\n',
  );
  process.exit(1);
}
