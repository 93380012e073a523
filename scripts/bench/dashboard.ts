// Opens the dashboard in Chromium for an owner with many clients (100,000 by default) and
// reports how soon the first rows and the exact totals show, what each further page costs
// while scrolling, and whether the page stayed responsive (long tasks of the main thread).
// Like the bench, it asserts nothing and measures the production build, on a temporary SQLite
// file that is removed again.
//
//   npm run bench:dashboard                            100,000 clients, 20 pages scrolled
//   npm run bench:dashboard -- --clients 10000 --pages 5 --screenshot dashboard.png
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { chromium } from '@playwright/test';
import { chromiumArgs, chromiumPath } from '../browser.ts';
import { serverNodeFlags } from '../server-flags.ts';
import { killAllChildren, projectRoot, startNode } from './processes.ts';
import { joinOwner, seedClients, seededRandom } from './seed.ts';

const { values: flags } = parseArgs({
  options: {
    clients: { type: 'string', default: '100000' },
    pages: { type: 'string', default: '20' },
    screenshot: { type: 'string' },
  },
});
const clientCount = Number(flags.clients);
const pagesToScroll = Number(flags.pages);
if (!Number.isSafeInteger(clientCount) || clientCount < 1)
  throw new Error('--clients must be a whole number above 0');
if (!Number.isSafeInteger(pagesToScroll) || pagesToScroll < 0)
  throw new Error('--pages must be a whole number, 0 or more');

const log = (line: string) => process.stderr.write(`· ${line}\n`);
const ms = (value: number) => `${Math.round(value)} ms`;

const tmp = mkdtempSync(path.join(os.tmpdir(), 'balance-dashboard-'));
try {
  log('running `npm run build`');
  const build = spawnSync('npm', ['run', 'build'], { cwd: projectRoot, stdio: ['ignore', 2, 2] });
  if (build.status !== 0) throw new Error('npm run build failed');

  const dbFile = path.join(tmp, 'dashboard.sqlite');
  const server = await startNode(
    'server',
    'dist/server/main.js',
    { LOG_LEVEL: 'warn', DATABASE_URL: dbFile },
    '/api/health',
    serverNodeFlags,
  );
  const { cookie, bookId } = await joinOwner(server.url);
  const seedStarted = performance.now();
  seedClients({ file: dbFile, bookId, count: clientCount, random: seededRandom(7) });
  log(`seeded ${clientCount} clients in ${ms(performance.now() - seedStarted)}`);

  const browser = await chromium.launch({ executablePath: chromiumPath(), args: chromiumArgs });
  try {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const [name, value] = cookie.split('=') as [string, string];
    await context.addCookies([{ name, value, url: server.url, httpOnly: true }]);
    const page = await context.newPage();
    // Main-thread tasks over 50 ms are what a user feels as a stuck page.
    await page.addInitScript(() => {
      const record = window as unknown as { longTasks: number[] };
      record.longTasks = [];
      new PerformanceObserver((list) => {
        for (const entry of list.getEntries()) record.longTasks.push(entry.duration);
      }).observe({ type: 'longtask', buffered: true });
    });

    const opened = performance.now();
    await page.goto(server.url);
    const rows = page.getByTestId('client-table').locator('tbody tr');
    await rows.first().waitFor();
    const firstRowsMs = performance.now() - opened;
    const totals = page.getByRole('heading', { name: /Total Owed/ });
    await totals.waitFor();
    const totalsMs = performance.now() - opened;
    const totalsText = (await totals.innerText()).replace(/\s+/g, ' ').trim();
    const firstCount = await rows.count();

    const pageMs: number[] = [];
    for (let scrolled = 0; scrolled < pagesToScroll; scrolled++) {
      const before = await rows.count();
      if (before >= clientCount) break;
      const started = performance.now();
      await page.mouse.wheel(0, 100_000);
      await page.waitForFunction(
        (count) =>
          document.querySelectorAll('[data-testid="client-table"] tbody tr').length > count,
        before,
      );
      pageMs.push(performance.now() - started);
    }
    const shownRows = await rows.count();
    const longTasks = await page.evaluate(
      () => (window as unknown as { longTasks: number[] }).longTasks,
    );
    if (flags.screenshot) {
      await page.evaluate(() => window.scrollTo(0, 0));
      await page.screenshot({ path: path.resolve(flags.screenshot) });
    }

    const sorted = [...pageMs].sort((a, b) => a - b);
    const median = sorted[Math.floor(sorted.length / 2)] ?? 0;
    process.stdout.write(
      [
        `# Dashboard in Chromium, ${clientCount.toLocaleString('en-US')} clients of one owner`,
        `first rows: ${ms(firstRowsMs)} after opening the page (${firstCount} rows)`,
        `totals shown: ${ms(totalsMs)}: ${totalsText}`,
        `scrolling: ${pageMs.length} more pages, each ${ms(median)} median, ${ms(sorted.at(-1) ?? 0)} at most; ${shownRows} rows shown`,
        `long main-thread tasks (> 50 ms): ${longTasks.length}${longTasks.length ? `, longest ${ms(Math.max(...longTasks))}` : ''}`,
        '',
      ].join('\n'),
    );
  } finally {
    await browser.close();
    await server.stop();
  }
} finally {
  killAllChildren();
  rmSync(tmp, { recursive: true, force: true });
}
