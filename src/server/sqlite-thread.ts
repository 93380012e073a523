// Commands load at the writer's first command, so readers stay small (decision 014).
import { serveSqliteThread } from './db/sqlite/worker.ts';

serveSqliteThread(async () => (await import('./write-commands.ts')).runWriteCommand);
