// So no query runs on the thread that serves requests (decision 008).
import { parentPort, workerData } from 'node:worker_threads';
import type { LoadCommands } from './commands.ts';
import { openSqlite, runStatement, type SqliteConnection } from './connection.ts';
import {
  describeError,
  readyMessage,
  type WorkerOptions,
  type WorkerReply,
  type WorkerRequest,
} from './protocol.ts';
import { Writer } from './writer.ts';

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

function cloneable(reply: WorkerReply): WorkerReply {
  try {
    structuredClone(reply);
    return reply;
  } catch (error) {
    return { id: reply.id, ok: false, error: describeError(error) };
  }
}

export function serveSqliteThread(loadCommands: LoadCommands | null): void {
  if (!parentPort) throw new Error('an SQLite thread runs in a worker thread');
  const port = parentPort;
  const options = workerData as WorkerOptions;
  // One message, one wake-up of the request thread.
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
  port.postMessage(readyMessage);
}
