import { DatabaseSync } from 'node:sqlite';
import { MessageChannel } from 'node:worker_threads';
import { sql } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestDatabase, testDialect, type TestDatabase } from '../../../../tests/db.ts';
import { AppError } from '../../errors.ts';
import { command, readingCommand, runnerOf, unchanged } from '../../modules/events/write-path.ts';
import { openSqlite, type SqliteConnection } from './connection.ts';
import type { GroupLimits, WorkerReply, WorkerRequest } from './protocol.ts';
import { Writer } from './writer.ts';

// The writer below runs in-process and is handed these commands, as the app's thread entry hands
// it the write path's (src/server/sqlite-thread.ts).

/** Says where the command's transaction sits, and changes nothing. */
const commandPlace = command(async ({ trx }) => {
  // Rolling back to the command's savepoint, having written nothing, undoes nothing; it fails only
  // where there is no such savepoint: at the top of the group's transaction.
  try {
    await sql`rollback to command`.execute(trx);
    return unchanged('savepoint');
  } catch (error) {
    if (String(error).includes('no such savepoint')) return unchanged('group');
    throw error;
  }
});

const writesThenRefuses = command(async ({ trx }) => {
  await sql`insert into notes (text) values ('written by a refused command')`.execute(trx);
  throw new AppError(409, 'conflict', 'Refused after writing');
});

/** Writes the note it is given, and records the change. */
const writesNote = command(async ({ trx, record }, _bookId, text: string) => {
  await sql`insert into notes (text) values (${text})`.execute(trx);
  await record({ clientId: null, action: 'created', version: 1, before: null, after: null });
  return text;
});

/** Meets a full disk, which makes SQLite roll back the whole transaction, and carries on. */
const carriesOnAfterDiskFull = command(async ({ trx }) => {
  try {
    await sql`insert into notes (text) values (${'x'.repeat(200_000)})`.execute(trx);
  } catch {
    // Swallowed: what a command must never do, and what the writer must survive.
  }
  await sql`insert into notes (text) values ('after the loss')`.execute(trx);
  throw new AppError(409, 'conflict', 'Refused after the loss');
});

/** What the slow commands ran and what the writer answered, in the order it happened. */
const timeline: string[] = [];

/** Takes `ms` of the writer's time (as a payment on a long ledger does), then writes its note. */
const slowNote = command(async ({ trx, record }, _bookId, text: string, ms: number) => {
  const until = performance.now() + ms;
  while (performance.now() < until) {
    // Busy: the writer's thread is held, as by a long read.
  }
  timeline.push(`ran ${text}`);
  await sql`insert into notes (text) values (${text})`.execute(trx);
  await record({ clientId: null, action: 'created', version: 1, before: null, after: null });
  return text;
});

/** Lets the reading of `test.readsBody` end: set by each test that sends one. */
let endReading: () => void = () => {};

/**
 * Takes bytes, as an import does, and reads them until the test lets it end; then writes them as
 * a note. A body that is not text is refused on reading, as an import's that is not JSON.
 */
const readsBody = readingCommand(
  async (bytes: Uint8Array) => {
    const text = Buffer.from(bytes).toString();
    if (text === 'not json') throw new AppError(400, 'validation', 'Not what was expected');
    await new Promise<void>((resolve) => (endReading = resolve));
    timeline.push(`read ${text}`);
    return text;
  },
  async ({ trx, record }, _bookId, text: string) => {
    timeline.push(`ran ${text}`);
    await sql`insert into notes (text) values (${text})`.execute(trx);
    await record({ clientId: null, action: 'created', version: 1, before: null, after: null });
    return text;
  },
);

const testCommands = {
  'test.readsBody': readsBody,
  'test.commandPlace': commandPlace,
  'test.writesThenRefuses': writesThenRefuses,
  'test.writesNote': writesNote,
  'test.carriesOnAfterDiskFull': carriesOnAfterDiskFull,
  'test.slowNote': slowNote,
};

const bookId = 'SomeBookId000000000000';
const otherBookId = 'OtherBookId00000000000';
/** Neither served nor timed before a test's own work: the turns and the times start afresh. */
const firstBookId = 'FirstBookId00000000000';

/** What the request thread sends to write a note in its transaction `tx`. */
const insertNote = (id: number, tx: number, text: string): WorkerRequest => ({
  id,
  op: 'query',
  tx,
  sql: 'insert into notes (text) values (?)',
  parameters: [text],
});

describe.skipIf(testDialect !== 'sqlite')('the SQLite writer (SQLite only)', () => {
  let database: TestDatabase;
  let connection: SqliteConnection;
  /** A connection of its own: it sees only what is committed to the file. */
  let outside: DatabaseSync;
  let sent: WorkerReply[];
  let writer: Writer;
  let closedByTest = false;

  const file = () => (database.config.dialect === 'sqlite' ? database.config.file : '');
  const notes = () =>
    (outside.prepare('select text from notes order by rowid').all() as { text: string }[]).map(
      (row) => row.text,
    );
  const reply = (id: number) => sent.find((answer) => answer.id === id);
  const order = (id: number) => sent.findIndex((answer) => answer.id === id);
  const valueOf = (id: number) => {
    const answer = reply(id);
    if (!answer?.ok)
      throw new Error(`request ${id} was not answered ok: ${JSON.stringify(answer)}`);
    return (answer.result as { value: unknown }).value;
  };
  async function answered(id: number): Promise<void> {
    const started = Date.now();
    while (!reply(id)) {
      if (Date.now() - started > 10_000) throw new Error(`request ${id} was never answered`);
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
  }
  const handle = (...requests: WorkerRequest[]) => {
    for (const request of requests) writer.handle(request);
  };
  /** Begins transaction `tx` and waits until it holds the connection, as the request thread does. */
  async function begin(id: number, tx: number): Promise<void> {
    handle({ id, op: 'begin', tx });
    await answered(id);
  }

  beforeEach(async () => {
    database = await createTestDatabase('sqlite');
    connection = openSqlite(file());
    connection.exec('create table notes (text text not null)');
    // What recording a change writes (events.repository.ts).
    connection.exec(`create table events (id integer primary key, book_id text, actor_id text,
      actor_token_id text, client_id text, action text, at integer, version integer, before text,
      after text, detail text)`);
    // Every change first finds its book (events.repository.ts `holdBook`).
    connection.exec(`create table books (id text primary key, lock_date text);
      insert into books (id) values ('${bookId}'), ('${otherBookId}'), ('${firstBookId}')`);
    outside = new DatabaseSync(file(), { readOnly: true });
    sent = [];
    // A group may stay open for a minute: each test decides when work arrives.
    await startWriter({ units: 64, ms: 60_000 });
  });

  async function startWriter(limits: GroupLimits): Promise<void> {
    writer = new Writer(
      connection,
      (answer) => {
        sent.push(answer);
        timeline.push(`answered ${answer.id}`);
      },
      limits,
      // These test commands keep nothing beside their own rows.
      async () => runnerOf(testCommands, async () => {}),
    );
    // The command modules load when the first command arrives, and the group is committed
    // meanwhile: loaded here, so the tests below see groups form as they do once running.
    handle({ id: 1, op: 'command', name: 'test.commandPlace', bookId, args: [], actor: null });
    await answered(1);
    timeline.length = 0;
  }

  afterEach(async () => {
    outside.close();
    if (!closedByTest) handle({ id: 999, op: 'close' });
    closedByTest = false;
    await database.drop();
  });

  it('runs a command that opens its group at the top of its transaction, in no savepoint', () => {
    expect(valueOf(1)).toBe('group');
  });

  it('runs a command that joins an open group in a savepoint after the work before it', async () => {
    await begin(2, 1);
    handle(
      { id: 3, op: 'command', name: 'test.commandPlace', bookId, args: [], actor: null },
      insertNote(4, 1, 'first'),
      { id: 5, op: 'commit', tx: 1 },
    );
    await answered(3);
    expect(valueOf(3)).toBe('savepoint');
    await answered(5);
    expect(notes()).toEqual(['first']);
  });

  it.each<[string, unknown]>([['bytes (an import’s body)', Buffer.from('{}')]])(
    'gives a command with %s a group of its own, committing the open group first',
    async (_, argument) => {
      await begin(2, 1);
      handle(
        insertNote(3, 1, 'first'),
        { id: 4, op: 'commit', tx: 1 },
        {
          id: 6,
          op: 'command',
          name: 'test.commandPlace',
          bookId,
          args: [argument],
          actor: null,
        },
      );
      await answered(6);
      expect(valueOf(6)).toBe('group');
      // The transaction before it was answered first, once its own group was on disk.
      expect(reply(4)).toEqual({ id: 4, ok: true });
      expect(order(4)).toBeLessThan(order(6));
      expect(notes()).toEqual(['first']);
    },
  );

  it('ends the group when a command at its top is refused, keeping nothing of it', async () => {
    handle({ id: 2, op: 'command', name: 'test.writesThenRefuses', bookId, args: [], actor: null });
    await answered(2);
    expect(reply(2)).toMatchObject({
      ok: false,
      error: { app: { status: 409, code: 'conflict' } },
    });
    expect(connection.isTransaction).toBe(false);
    // The next work opens a group of its own and is committed as usual.
    await begin(3, 1);
    handle(insertNote(4, 1, 'next'), { id: 5, op: 'commit', tx: 1 });
    await answered(5);
    expect(reply(5)).toEqual({ id: 5, ok: true });
    expect(notes()).toEqual(['next']);
  });

  it('answers a change at the top of its group with the commit, whatever the work after it', async () => {
    handle(
      { id: 2, op: 'command', name: 'test.writesNote', bookId, args: ['first'], actor: null },
      { id: 3, op: 'begin', tx: 1 },
    );
    // The transaction begins once the command is done, in the same group.
    await answered(3);
    expect(reply(2)).toBeUndefined();
    handle(
      insertNote(4, 1, 'undone'),
      { id: 5, op: 'rollback', tx: 1 },
      { id: 6, op: 'command', name: 'test.writesThenRefuses', bookId, args: [], actor: null },
    );
    await answered(2);
    expect(valueOf(2)).toBe('first');
    expect(notes()).toEqual(['first']);
    expect(reply(5)).toEqual({ id: 5, ok: true });
    await answered(6);
    expect(reply(6)).toMatchObject({ ok: false, error: { app: { status: 409 } } });
    expect(notes()).toEqual(['first']);
  });

  it('writes nothing more for a command whose transaction SQLite lost under it', async () => {
    const { page_count: pages } = connection.raw.prepare('pragma page_count').get() as {
      page_count: number;
    };
    connection.exec(`pragma max_page_count = ${pages + 2}`);
    handle({
      id: 2,
      op: 'command',
      name: 'test.carriesOnAfterDiskFull',
      bookId,
      args: [],
      actor: null,
    });
    await answered(2);
    const lost = reply(2);
    expect(lost?.ok).toBe(false);
    expect(lost?.ok === false && lost.error.message).toContain('the transaction was lost');
    expect(notes()).toEqual([]);
    connection.exec('pragma max_page_count = 1073741823');
    handle({ id: 3, op: 'command', name: 'test.writesNote', bookId, args: ['next'], actor: null });
    await answered(3);
    expect(notes()).toEqual(['next']);
  });

  it('keeps the work before a refused command that joined its group', async () => {
    await begin(2, 1);
    handle(
      { id: 3, op: 'command', name: 'test.writesThenRefuses', bookId, args: [], actor: null },
      insertNote(4, 1, 'kept'),
      { id: 5, op: 'commit', tx: 1 },
    );
    await answered(3);
    await answered(5);
    expect(reply(3)).toMatchObject({ ok: false, error: { app: { status: 409 } } });
    expect(reply(5)).toEqual({ id: 5, ok: true });
    expect(notes()).toEqual(['kept']);
  });

  /**
   * A command of the write path, for the writer: `firstBookId`'s, or another book's; given
   * `ms`, it takes that long and says when it ran (`timeline`).
   */
  const note = (id: number, text: string, owner = firstBookId, ms?: number): WorkerRequest =>
    ms === undefined
      ? { id, op: 'command', name: 'test.writesNote', bookId: owner, args: [text], actor: null }
      : { id, op: 'command', name: 'test.slowNote', bookId: owner, args: [text, ms], actor: null };

  it('runs another owner’s write while a large command’s body is still being read', async () => {
    handle({
      id: 10,
      op: 'command',
      name: 'test.readsBody',
      bookId: firstBookId,
      args: [Buffer.from('imported')],
      actor: null,
    });
    // Sent once the large command has started: held for its whole reading before, this waited
    // for the reading to end, which waits for this answer.
    await new Promise((resolve) => setImmediate(resolve));
    handle(note(20, 'payment', otherBookId));
    await answered(20);
    expect(notes()).toEqual(['payment']);
    endReading();
    await answered(10);
    expect(valueOf(10)).toBe('imported');
    expect(timeline).toEqual(['answered 20', 'read imported', 'ran imported', 'answered 10']);
    expect(notes()).toEqual(['payment', 'imported']);
  });

  it('answers a large command refused on reading without opening a group for it', async () => {
    handle({
      id: 10,
      op: 'command',
      name: 'test.readsBody',
      bookId: firstBookId,
      args: [Buffer.from('not json')],
      actor: null,
    });
    await answered(10);
    expect(reply(10)).toMatchObject({ ok: false, error: { app: { status: 400 } } });
    expect(connection.isTransaction).toBe(false);
    expect(notes()).toEqual([]);
  });

  it('takes waiting work one owner after another, each owner’s in the order it came', async () => {
    // An open transaction holds the connection: the commands below all wait for it.
    await begin(2, 1);
    handle(
      note(10, 'a1'),
      note(11, 'a2'),
      note(12, 'a3'),
      note(20, 'b1', otherBookId),
      note(21, 'b2', otherBookId),
      { id: 3, op: 'commit', tx: 1 },
    );
    await Promise.all([12, 21].map(answered));
    expect(notes()).toEqual(['a1', 'b1', 'a2', 'b2', 'a3']);
  });

  it('takes in every message that has arrived before it runs the work of one', async () => {
    // As in the writer's thread: each message comes in its own turn of the event loop, and the
    // messages posted while the writer was busy all wait in the port.
    const { port1, port2 } = new MessageChannel();
    port2.on('message', (requests: WorkerRequest[]) => handle(...requests));
    try {
      for (const request of [
        note(10, 'a1', firstBookId, 25),
        note(11, 'a2', firstBookId, 25),
        note(12, 'a3', firstBookId, 25),
        note(20, 'b1', otherBookId),
      ])
        port1.postMessage([request]);
      await Promise.all([12, 20].map(answered));
    } finally {
      port1.close();
    }
    expect(notes()).toEqual(['a1', 'b1', 'a2', 'a3']);
  });

  it('takes in the messages that arrive while it works, after a few milliseconds of work', async () => {
    const { port1, port2 } = new MessageChannel();
    port2.on('message', (requests: WorkerRequest[]) => handle(...requests));
    try {
      handle(
        note(10, 'a1', firstBookId, 25),
        note(11, 'a2', firstBookId, 25),
        note(12, 'a3', firstBookId, 25),
      );
      // Arrives while a1 runs: it waits for a1 alone.
      setTimeout(() => port1.postMessage([note(20, 'b1', otherBookId)]), 5);
      await Promise.all([12, 20].map(answered));
    } finally {
      port1.close();
    }
    expect(notes()).toEqual(['a1', 'b1', 'a2', 'a3']);
  });

  it('refuses the work under way or waiting when it is closed, and all that comes after', async () => {
    // tx 1 committed into the group, which tx 2 still holds open; a command waits behind it.
    await begin(2, 1);
    handle(insertNote(3, 1, 'first'), { id: 4, op: 'commit', tx: 1 });
    await begin(5, 2);
    handle(note(10, 'a1'), { id: 11, op: 'close' });
    closedByTest = true;
    const closing = { ok: false, error: { message: 'the database is closing' } };
    expect(reply(4)).toMatchObject(closing);
    expect(reply(10)).toMatchObject(closing);
    expect(reply(11)).toEqual({ id: 11, ok: true });
    handle(insertNote(12, 2, 'late'), { id: 13, op: 'commit', tx: 2 }, note(14, 'a2'));
    for (const id of [12, 13, 14])
      expect(reply(id)).toMatchObject({ ok: false, error: { message: 'the database is closed' } });
    expect(notes()).toEqual([]);
  });

  it('answers another owner’s work before a slow owner’s commands after it are all done', async () => {
    // The app's limit on a group's age, at a scale the slow commands below pass at once.
    await startWriter({ units: 64, ms: 20 });
    handle(
      note(10, 'a1', firstBookId, 50),
      note(11, 'a2', firstBookId, 50),
      note(12, 'a3', firstBookId, 50),
      note(20, 'b1', otherBookId),
    );
    await Promise.all([12, 20].map(answered));
    expect(notes()).toEqual(['a1', 'b1', 'a2', 'a3']);
    // b1 waits for a1, ahead of it, and at most the next of a's, whose group it may share.
    expect(timeline.indexOf('answered 20')).toBeLessThan(timeline.indexOf('ran a3'));
  });
});
