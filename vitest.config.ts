import { globSync } from 'node:fs';
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
if (postgresUrl) {
  process.stdout.write(
    '[balance] Only server suites whose subject touches SQL run on PostgreSQL too ' +
      '(bothDatabaseSuites in vitest.config.ts); the rest run on SQLite only (sqliteOnlySuites).\n',
  );
}

const serverTests = ['src/server/**/*.test.ts', 'tests/**/*.test.ts'];
// Checks of source files and catalogues need no database: they run once, with the shared tests.
const sourceChecks = 'tests/i18n/**/*.test.ts';
const serverExclude = [...configDefaults.exclude, sourceChecks];

// Server suites that run in the SQLite project only: they use no database, read SQLite's own
// query plans, or test what happens before or after the database (HTTP edges, headers, the log,
// the password-hashing line). On PostgreSQL they repeated the same checks for about a minute of
// every CI run (issue 54). A suite whose subject touches SQL belongs on both (bothDatabaseSuites).
const sqliteOnlySuites = [
  // No database at all.
  'src/server/ids.test.ts',
  'src/server/json-shape.test.ts',
  'src/server/log-redaction.test.ts',
  'src/server/start-line.test.ts',
  'src/server/modules/auth/user-agent.test.ts',
  'src/server/modules/bank/bank-formats.test.ts',
  'src/server/modules/bank/bank-matching.test.ts',
  'src/server/modules/bank/bank-statement.test.ts',
  'src/server/modules/clients/gzip-answer.test.ts',
  'src/server/modules/events/owner-concurrency-limit.test.ts',
  'src/server/modules/ledger/ageing.test.ts',
  'src/server/modules/reminders/schedule.test.ts',
  'src/server/modules/statements/statement-pdf-renderer.test.ts',
  'src/server/modules/transfer/export-stream.test.ts',
  'src/server/modules/transfer/import-rows.test.ts',
  'tests/build-stamp.test.ts',
  'tests/layering.test.ts',
  'tests/install.test.ts',
  'src/server/config.test.ts',
  'src/server/write-commands.test.ts',
  'src/server/modules/overview/shared-work.test.ts',
  // SQLite's query plans, and SQLite's own machinery (on PostgreSQL these files only said
  // "skipped", after a second or two of loading the server's modules each).
  'src/server/**/*-plans.test.ts',
  'src/server/db/sqlite/*.test.ts',
  'tests/faults/sqlite-*.test.ts',
  'tests/bench-seed.test.ts',
  'src/server/modules/bank/bank-scoring.test.ts',
  // Before or after the database: addresses, slow clients, headers, the log, password hashing.
  'tests/faults/forged-forwarded-for.test.ts',
  'tests/faults/slow-clients.test.ts',
  'tests/faults/request-edges.test.ts',
  'tests/faults/sign-up-flood.test.ts',
  'tests/reliability/headers.test.ts',
  'tests/reliability/secrets-in-logs.test.ts',
  'src/server/request-log.test.ts',
  'src/server/i18n.test.ts',
  // Their subject is not SQL, and the SQL they pass through runs on PostgreSQL in the suite
  // named beside each (decision 045).
  // The OpenAPI document and the route table: built from the route definitions, no query at all.
  'src/server/modules/api-docs/api-docs.routes.test.ts',
  'src/server/modules/api-docs/api-routes.test.ts',
  // The PDF queue's turns; a statement's queries and its PDF: statement.routes.test.ts.
  'src/server/modules/statements/statement-pdf-fairness.test.ts',
  // How a large body is read and parsed; the import it feeds: transfer.routes.test.ts and
  // import-slices.test.ts.
  'src/server/modules/transfer/chunked-json-body.test.ts',
];
// Server suites whose subject touches SQL: they run on SQLite and, when TEST_DATABASE_URL is set,
// on PostgreSQL. Every server suite is in exactly one of the three lists (checked below), so a
// new suite cannot silently drop off PostgreSQL, nor silently run there for nothing.
const bothDatabaseSuites = [
  // Each migration's own SQL, in each dialect.
  'src/server/db/migrations/*.test.ts',
  'src/server/app.test.ts',
  'src/server/main.test.ts',
  'src/server/modules/auth/account-lifecycle.test.ts',
  'src/server/modules/auth/account.routes.test.ts',
  'src/server/modules/auth/auth.routes.test.ts',
  'src/server/modules/auth/forgot-password.routes.test.ts',
  'src/server/modules/auth/session-ends.test.ts',
  'src/server/modules/bank/bank-formats.routes.test.ts',
  'src/server/modules/bank/bank-lines.routes.test.ts',
  'src/server/modules/bank/bank-xlsx.routes.test.ts',
  'src/server/modules/bank/bank.routes.test.ts',
  'src/server/modules/books/books.routes.test.ts',
  'src/server/modules/books/closed-periods.test.ts',
  'src/server/modules/client-links/account-links.routes.test.ts',
  'src/server/modules/client-links/client-links.routes.test.ts',
  'src/server/modules/clients/clients.business.test.ts',
  'src/server/modules/clients/clients.list-cache.test.ts',
  'src/server/modules/clients/clients.list.test.ts',
  'src/server/modules/clients/clients.name-order.test.ts',
  'src/server/modules/clients/clients.routes.test.ts',
  'src/server/modules/clients/clients.search.test.ts',
  'src/server/modules/clients/clients.totals.test.ts',
  'src/server/modules/clients/owner-emails.test.ts',
  'src/server/modules/events/events.routes.test.ts',
  'src/server/modules/events/feed.test.ts',
  'src/server/modules/events/write-path.test.ts',
  'src/server/modules/idempotency/idempotency.test.ts',
  'src/server/modules/ledger/entries.routes.test.ts',
  'src/server/modules/ledger/kept-sums.test.ts',
  'src/server/modules/ledger/ledger-months.test.ts',
  'src/server/modules/ledger/payment-targets.test.ts',
  'src/server/modules/overview/ageing.routes.test.ts',
  'src/server/modules/overview/overview.routes.test.ts',
  'src/server/modules/reminders/reminders.test.ts',
  'src/server/modules/settings/language.routes.test.ts',
  'src/server/modules/settings/settings.routes.test.ts',
  'src/server/modules/settings/setup.routes.test.ts',
  'src/server/modules/statements/statement-send.test.ts',
  'src/server/modules/statements/statement.routes.test.ts',
  'src/server/modules/tokens/tokens.routes.test.ts',
  'src/server/modules/transfer/export-pages.test.ts',
  'src/server/modules/transfer/import-ageing.test.ts',
  'src/server/modules/transfer/import-slices.test.ts',
  'src/server/modules/transfer/nested-bodies.test.ts',
  'src/server/modules/transfer/restore-book.test.ts',
  'src/server/modules/transfer/restore-business.test.ts',
  'src/server/modules/transfer/restore-targets.test.ts',
  'src/server/modules/transfer/restore.routes.test.ts',
  'src/server/modules/transfer/transfer.routes.test.ts',
  'tests/archive.test.ts',
  'tests/backup.test.ts',
  'tests/db.test.ts',
  'tests/server-flags.test.ts',
  'tests/faults/live-streams.test.ts',
  'tests/faults/login-lockout.test.ts',
  'tests/faults/nested-bodies.test.ts',
  'tests/reliability/authorization-matrix.test.ts',
  'tests/reliability/concurrency.test.ts',
  'tests/reliability/fuzz.test.ts',
  'tests/reliability/ledger-invariant.test.ts',
];
// PostgreSQL's own suites: in the SQLite project they only say "skipped", so when the
// PostgreSQL project runs they are left out of the SQLite one. Without it they stay there, to
// say plainly that they were skipped and why.
const postgresOnlySuites = ['tests/faults/postgres-*.test.ts'];

// A moved or renamed suite would otherwise run on the wrong databases without a word, and a new
// one that no list names would run on SQLite only: each server suite is named exactly once.
const suiteLists = { sqliteOnlySuites, postgresOnlySuites, bothDatabaseSuites };
const listsOfSuite = new Map<string, string[]>();
for (const [list, patterns] of Object.entries(suiteLists)) {
  for (const pattern of patterns) {
    const files = globSync(pattern);
    if (files.length === 0)
      throw new Error(`vitest.config.ts: ${list} names ${pattern}, which is no file`);
    for (const file of files) listsOfSuite.set(file, [...(listsOfSuite.get(file) ?? []), list]);
  }
}
for (const file of globSync(serverTests, { exclude: [sourceChecks] })) {
  const lists = listsOfSuite.get(file) ?? [];
  if (lists.length !== 1)
    throw new Error(
      `vitest.config.ts: the server suite ${file} is in ${lists.length === 0 ? 'no list' : lists.join(' and ')}: ` +
        'name it in exactly one of bothDatabaseSuites (its subject touches SQL), sqliteOnlySuites ' +
        'or postgresOnlySuites',
    );
}

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
          exclude: postgresUrl ? [...serverExclude, ...postgresOnlySuites] : serverExclude,
          environment: 'node',
          env: { TEST_DIALECT: 'sqlite' },
          globalSetup: ['tests/setup/template-database.ts'],
          setupFiles: ['tests/setup/no-console-error.ts'],
          // Each file builds its own apps on its own database, and none changes a module's state
          // or the environment: a worker keeps the modules it loaded for the next file. Loading
          // the server's modules anew for every file took a third of the run (293 s -> 207 s).
          isolate: false,
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
                include: [...bothDatabaseSuites, ...postgresOnlySuites],
                exclude: serverExclude,
                environment: 'node' as const,
                env: { TEST_DIALECT: 'postgres', TEST_DATABASE_URL: postgresUrl },
                globalSetup: ['tests/setup/template-database.ts'],
                setupFiles: ['tests/setup/no-console-error.ts'],
                // As on SQLite: modules kept from file to file.
                isolate: false,
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
