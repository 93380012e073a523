// The messages between the request thread (dialect.ts) and an SQLite thread (worker.ts), and
// nothing else: both sides import this file, neither imports the other.
import type { Actor } from '../actor.ts';
import type { AppErrorData } from '../../errors.ts';

export type WorkerRole = 'writer' | 'reader';

/** How much a group of writes may hold before its COMMIT (decision 008). */
export interface GroupLimits {
  units: number;
  ms: number;
}

/** Handed to a thread as it starts (its `workerData`). */
export interface WorkerOptions {
  role: WorkerRole;
  file: string;
  group: GroupLimits;
}

/** The thread posts this once, when its connection is open. */
export const readyMessage = 'ready';

/** Sent in batches (`WorkerRequest[]`): one message per turn, one wake-up of the thread. */
export type WorkerRequest =
  | { id: number; op: 'query'; sql: string; parameters: unknown[]; tx?: number }
  | { id: number; op: 'begin' | 'commit' | 'rollback'; tx: number }
  /** `name`: a key of the write commands' table (src/server/write-commands.ts). */
  | {
      id: number;
      op: 'command';
      name: string;
      bookId: string;
      args: unknown[];
      actor: Actor | null;
    }
  | { id: number; op: 'close' };

export interface QueryOutcome {
  rows: unknown[];
  changes?: number | bigint;
  lastInsertRowid?: number | bigint;
}

export interface CommandOutcome {
  value: unknown;
  changed: boolean;
}

export interface WorkerError {
  message: string;
  /** A refusal (AppError) from a command, rebuilt as one on the request thread. */
  app?: AppErrorData;
  name?: string;
  stack?: string;
  code?: string;
  errcode?: number;
  errstr?: string;
}

/** Sent in batches (`WorkerReply[]`), as the requests are. */
export type WorkerReply =
  | { id: number; ok: true; result?: QueryOutcome | CommandOutcome }
  | { id: number; ok: false; error: WorkerError };

/** An error as it crosses: SQLite's codes kept, which db/errors.ts reads (a full disk, a busy file). */
export function describeError(error: unknown): WorkerError {
  if (!(error instanceof Error)) return { message: String(error) };
  const { code, errcode, errstr } = error as Error & {
    code?: string;
    errcode?: number;
    errstr?: string;
  };
  return { message: error.message, code, errcode, errstr, name: error.name, stack: error.stack };
}
