import { defineConfig, devices } from '@playwright/test';
import { chromiumArgs, chromiumPath } from './scripts/browser.ts';

const port = Number(process.env.E2E_PORT ?? 4173);
const baseURL = `http://127.0.0.1:${port}`;
// A second instance of its own for the tests that act as the instance's administrator
// (the first account): closing registration there cannot disturb the other tests.
const adminBaseURL = `http://127.0.0.1:${port + 1}`;

const server = (serverPort: number) => ({
  // The real server on a fresh database for every run; every test makes its own users.
  command: 'node scripts/e2e-server.ts',
  url: `http://127.0.0.1:${serverPort}/api/health`,
  reuseExistingServer: false,
  timeout: 60_000,
  env: { PORT: String(serverPort), HOST: '127.0.0.1', LOG_LEVEL: 'warn' },
});

const desktop = { ...devices['Desktop Chrome'], channel: undefined };
const adminSpecs = /\.admin\.spec\.ts$/;
const screenWalks = /\/(screens|languages)\.spec\.ts$/;

export default defineConfig({
  testDir: 'e2e',
  fullyParallel: true,
  forbidOnly: !!process.env.CI,
  retries: 0,
  workers: process.env.CI ? 2 : undefined,
  reporter: [['list']],
  // Generous: a test that waits out several flashes on a busy 2-core machine needs it; a slow
  // test is not a failed one (speed is measured in `npm run bench`).
  timeout: 60_000,
  // A page's first render waits for a core too: on a starved 2-core machine (two servers, two
  // browsers) one client page took 7 s from navigation to its balance, every request answered
  // within 0.6 s. An expectation still fails when what it waits for never comes.
  expect: { timeout: 15_000 },
  use: {
    baseURL,
    // The app follows the browser's language: the specs read its English texts.
    locale: 'en-US',
    trace: 'retain-on-failure',
    launchOptions: { executablePath: chromiumPath(), args: chromiumArgs },
  },
  // Tests are handed to the workers in this order, so the longest come first: the
  // administrator's steps, which run one after another in one worker (they build on each other),
  // and the walks through every screen (a minute or more each). Listed last, as they were, they
  // ran alone for the last minute of a CI run while the other worker had nothing left to do.
  projects: [
    {
      name: 'administrator',
      use: { ...desktop, baseURL: adminBaseURL },
      testMatch: adminSpecs,
    },
    { name: 'screen walks', use: desktop, testMatch: screenWalks },
    {
      name: 'chromium',
      use: desktop,
      testIgnore: [adminSpecs, screenWalks],
      grepInvert: /@phone/,
    },
    {
      name: 'phone',
      use: { ...devices['Pixel 7'], channel: undefined },
      testIgnore: [adminSpecs, screenWalks],
      grep: /@phone/,
    },
  ],
  webServer: [server(port), server(port + 1)],
});
