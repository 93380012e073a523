// For what opens the database without the app: the backup and restore scripts, this room's tests.
import { serveSqliteThread } from './worker.ts';

serveSqliteThread(null);
