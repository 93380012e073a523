// A worker thread that holds one node:sqlite connection, so no query runs on the thread that
// serves requests: a read-only reader, or the one writer (sqlite-writer.ts), which commits
// transactions in groups (docs/decisions/008-*.md) and answers each caller only after the shared
// COMMIT (synced by synchronous=FULL) has returned. The thread's entry file calls
// `serveSqliteThread`: src/server/sqlite-thread.ts, which hands the writer the write path's
// commands, or sqlite-thread-without-commands.ts beside this file.
import { parentPort, workerData } from 'node:worker_threads';
import type { AppErrorData } from '../errors.ts';
import type { LoadCommands } from './sqlite-commands.ts';
import { openSqlite, runStatement, type QueryOutcome, type SqliteConnection } from './sqlite.ts';
import { describeError, Writer } from './sqlite-writer.ts';

export type WorkerRole = 'writer' | 'reader';

export interface GroupLimits {
  /** A group commits once it holds this many units of work... */
  units: number;
  /** ...or once it is this old, whichever comes first. */
  ms: number;
}

export interface WorkerOptions {
  role: WorkerRole;
  file: string;
  group: GroupLimits;
}

/** What the request thread asks; `tx` names the transaction a query belongs to. */
export type WorkerRequest =
  | { id: number; op: 'query'; sql: string; parameters: unknown[]; tx?: number }
  | { id: number; op: 'begin' | 'commit' | 'rollback'; tx: number }
  /** A command of the write path, run whole in the writer (sqlite-commands.ts). */
  | { id: number; op: 'command'; name: string; ownerId: string; args: unknown[] }
  | { id: number; op: 'close' };

/** A command's value, and whether it changed anything (recorded an event). */
export interface CommandOutcome {
  value: unknown;
  changed: boolean;
}

export interface WorkerError {
  message: string;
  /** An AppError a command threw, to be thrown again on the request thread. */
  app?: AppErrorData;
  name?: string;
  stack?: string;
  code?: string;
  errcode?: number;
  errstr?: string;
}

export type WorkerReply =
  | { id: number; ok: true; result?: QueryOutcome | CommandOutcome }
  | { id: number; ok: false; error: WorkerError };

/** A reader: a read-only connection that sees only committed data, one query at a time. */
function reader(db: SqliteConnection, send: (reply: WorkerReply) => void) {
  return (request: WorkerRequest) => {
    if (request.op === 'close') {
      db.close();
      send({ id: request.id, ok: true });
      return;
    }
    if (request.op !== 'query') {
      send({ id: request.id, ok: false, error: { message: 'a reader runs no transactions' } });
      return;
    }
    try {
      send({ id: request.id, ok: true, result: runStatement(db, request.sql, request.parameters) });
    } catch (error) {
      send({ id: request.id, ok: false, error: describeError(error) });
    }
  };
}

/** The reply as sent, or the error that it cannot be. */
function cloneable(reply: WorkerReply): WorkerReply {
  try {
    structuredClone(reply);
    return reply;
  } catch (error) {
    return { id: reply.id, ok: false, error: describeError(error) };
  }
}

/**
 * Serves the request thread from this worker thread: as a reader, or as the writer, which runs
 * the commands `loadCommands` gives it (null: it refuses every command).
 */
export function serveSqliteThread(loadCommands: LoadCommands | null): void {
  if (!parentPort) throw new Error('an SQLite thread runs in a worker thread');
  const port = parentPort;
  const options = workerData as WorkerOptions;
  // Replies go back together once the current message's work is done (a batch of requests
  // from the request thread, or a group's commit): one message, one wake-up of that thread.
  let outbox: WorkerReply[] = [];
  const flush = () => {
    const replies = outbox;
    outbox = [];
    try {
      port.postMessage(replies);
    } catch {
      // A value that cannot be cloned (a bug in a command) fails its request, not the thread.
      port.postMessage(replies.map((reply) => cloneable(reply)));
    }
  };
  const send = (reply: WorkerReply) => {
    outbox.push(reply);
    if (outbox.length === 1) queueMicrotask(flush);
  };
  const db = openSqlite(options.file, { readOnly: options.role === 'reader' });
  let handle = reader(db, send);
  if (options.role === 'writer') {
    const writer = new Writer(db, send, options.group, loadCommands);
    handle = (request) => writer.handle(request);
  }
  port.on('message', (requests: WorkerRequest[]) => {
    for (const request of requests) handle(request);
  });
  port.postMessage('ready');
}
