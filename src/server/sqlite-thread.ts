// The entry of the app's SQLite worker threads (db/sqlite-worker.ts): the writer is handed the
// write path's table of commands (write-commands.ts), loaded when its first command arrives, so
// readers, and a writer that never runs one, stay small (docs/decisions/014-*.md).
import { serveSqliteThread } from './db/sqlite-worker.ts';

serveSqliteThread(async () => (await import('./write-commands.ts')).runWriteCommand);
