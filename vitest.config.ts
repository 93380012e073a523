import { configDefaults, defineConfig } from 'vitest/config';
import react from '@vitejs/plugin-react';

const postgresUrl = process.env.TEST_DATABASE_URL;
if (!postgresUrl) {
  // Said once per run, plainly, so nobody mistakes a SQLite-only run for a full one.
  process.stdout.write(
    '\n[balance] PostgreSQL suite SKIPPED: TEST_DATABASE_URL is not set, so the server tests ran on SQLite only.\n' +
      '[balance] Set TEST_DATABASE_URL=postgres://user@host:5432/db to run them on PostgreSQL too.\n\n',
  );
}

// Said once per run, so no skipped test is mistaken for a passed one.
process.stdout.write(
  '[balance] Skipped tests are those of one database only ("SQLite only", "PostgreSQL only"): ' +
    'each runs in its own database project and shows as skipped in the other.\n',
);

const serverTests = ['src/server/**/*.test.ts', 'tests/**/*.test.ts'];
// Checks of source files and catalogues need no database: they run once, with the shared tests.
const sourceChecks = 'tests/i18n/**/*.test.ts';
const serverExclude = [...configDefaults.exclude, sourceChecks];

export default defineConfig({
  plugins: [react()],
  test: {
    // Vitest's default on this 2-core machine is one file at a time (cores - 1), so the PostgreSQL
    // suite waited for the SQLite one. Server tests spend much of their time waiting on the
    // database's threads and processes: two files at once keep both cores busy.
    maxWorkers: 2,
    projects: [
      {
        extends: true,
        test: {
          name: 'shared',
          include: ['src/shared/**/*.test.ts', sourceChecks],
          environment: 'node',
          setupFiles: ['tests/setup/no-console-error.ts'],
          // The property tests take seconds of a core; beside another test file on a busy
          // machine, more than vitest's default 5 s. A slow run is not a failed one.
          testTimeout: 20_000,
        },
      },
      {
        extends: true,
        test: {
          name: 'server (sqlite)',
          include: serverTests,
          exclude: serverExclude,
          environment: 'node',
          env: { TEST_DIALECT: 'sqlite' },
          globalSetup: ['tests/setup/template-database.ts'],
          setupFiles: ['tests/setup/no-console-error.ts'],
          testTimeout: 20_000,
          hookTimeout: 30_000,
        },
      },
      ...(postgresUrl
        ? [
            {
              extends: true as const,
              test: {
                name: 'server (postgres)',
                include: serverTests,
                exclude: serverExclude,
                environment: 'node' as const,
                env: { TEST_DIALECT: 'postgres', TEST_DATABASE_URL: postgresUrl },
                globalSetup: ['tests/setup/template-database.ts'],
                setupFiles: ['tests/setup/no-console-error.ts'],
                testTimeout: 20_000,
                hookTimeout: 30_000,
              },
            },
          ]
        : []),
      {
        extends: true,
        test: {
          name: 'client',
          include: ['src/client/**/*.test.{ts,tsx}'],
          environment: 'jsdom',
          setupFiles: ['tests/setup/no-console-error.ts', 'tests/setup/dom.ts'],
        },
      },
    ],
  },
});
