// The server as one bundle, dist/server/main.js, which `npm start` runs. Running the .ts files
// directly (as `npm run dev` and the tests do) costs about 27 MB more resident memory for Node's
// type stripper and hundreds of separate module records; the bundle keeps only the code the
// server uses (docs/performance.md).
import { rmSync } from 'node:fs';
import path from 'node:path';
import { build } from 'rolldown';

const root = path.resolve(import.meta.dirname, '..');
const outDir = path.join(root, 'dist/server');

rmSync(outDir, { recursive: true, force: true });
await build({
  // SQLite's worker threads start from files of their own beside main.js: the app's, whose writer
  // is handed the write path's commands, and the one without commands (db/sqlite/dialect.ts).
  input: {
    main: path.join(root, 'src/server/main.ts'),
    'sqlite-thread': path.join(root, 'src/server/sqlite-thread.ts'),
    'sqlite-thread-without-commands': path.join(
      root,
      'src/server/db/sqlite/sqlite-thread-without-commands.ts',
    ),
    // Statement PDFs are made in a child process of their own (decision 037); the bank statements
    // people send are read in worker threads (decision 036).
    'statement-pdf-worker': path.join(
      root,
      'src/server/modules/statements/statement-pdf-worker.ts',
    ),
    'bank-preview-worker': path.join(root, 'src/server/modules/bank/bank-preview-worker.ts'),
  },
  platform: 'node',
  // Loaded from node_modules at run time rather than bundled: pdfkit finds its own data files
  // (standard fonts, colour profile) beside its code. The statement's fonts are not copied
  // either: they are read from assets/fonts through package.json's "#fonts/*" import, found from
  // dist/server as from the .ts files.
  external: [/^pdfkit(\/|$)/, /^nodemailer(\/|$)/],
  logLevel: 'warn',
  // Bundled files stay readable, so a stack trace in the log points at recognisable code.
  output: { dir: outDir, format: 'esm', minify: false },
});
process.stdout.write('[balance] bundled the server into dist/server\n');
