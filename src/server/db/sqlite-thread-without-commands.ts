// The entry of an SQLite worker thread whose writer runs no command of the write path: for what
// opens the database without the app (the backup and restore scripts, the tests of this room).
// The app's threads start from src/server/sqlite-thread.ts, which hands the writer its commands.
import { serveSqliteThread } from './sqlite-worker.ts';

serveSqliteThread(null);
