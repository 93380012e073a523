import type { FastifyInstance } from 'fastify';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { buildTestApp, type TestApp } from '../../../../tests/app.ts';
import { joinAs } from '../../../../tests/auth.ts';
import { buildEventRow } from '../../../../tests/factories.ts';
import { injectOk } from '../../../../tests/http.ts';
import { hashToken, liveSessionBooks, sessionCookieName } from '../auth/session.ts';
import { ChangeFeed, changesFrame, type Subscriber } from './feed.ts';

/** A stream as the feed sees it, keeping what it was sent and how it ended. */
function recordingStream(bookId: string, cookie: string, summarize = false) {
  const stream = {
    frames: [] as string[],
    /** What was handed to the stream, as it was handed. */
    written: [] as (string | Buffer)[],
    ended: null as null | 'closed' | 'session ended',
    subscriber: null as unknown as Subscriber,
  };
  stream.subscriber = {
    bookId,
    // A solo owner's book has the owner's id.
    userId: bookId,
    clients: null,
    sessionTokenHash: hashToken(cookie.slice(`${sessionCookieName}=`.length)),
    lastId: 0,
    summarize,
    backedUp: false,
    write: (frames) => {
      stream.written.push(frames);
      stream.frames.push(frames.toString());
    },
    close: (sessionEnded = false) => {
      stream.ended ??= sessionEnded ? 'session ended' : 'closed';
    },
  };
  return stream;
}

/**
 * Adds a client through the app. Its own feed is not the one under test: the test wakes that
 * one by hand.
 */
async function addClient(
  app: FastifyInstance,
  cookie: string,
  firstName: string,
  lastName: string,
) {
  const response = await app.inject({
    method: 'POST',
    url: '/api/clients',
    headers: { cookie },
    payload: {
      firstName,
      lastName,
      email: `${lastName.toLowerCase()}@example.com`,
      phone: '+1 555 0100200',
      currency: 'USD',
    },
  });
  expect(response.statusCode).toBe(201);
}

/** The ids of the owner's events, oldest first. */
async function eventIds(app: FastifyInstance, bookId: string): Promise<number[]> {
  const events = await app.db.kysely
    .selectFrom('events')
    .select('id')
    .where('book_id', '=', bookId)
    .orderBy('id')
    .execute();
  return events.map((event) => event.id);
}

/** The data of each message named `event` among the frames a stream was sent. */
function messageData<T>(frames: readonly string[], event: 'change' | 'changes'): T[] {
  return frames
    .join('')
    .split('\n\n')
    .filter((frame) => frame.split('\n').includes(`event: ${event}`))
    .map((frame) => JSON.parse(frame.split('data: ')[1] ?? '') as T);
}

/**
 * Joins, then opens the app as the web app does (GET /api/auth/session): a new session settles on
 * its book at its first request (books/current-book.ts `sessionBook`), as the stream route's own
 * request does before it subscribes. Until then the session names no book, so no stream of it
 * would be live.
 */
async function joinedOwner(app: FastifyInstance) {
  const owner = await joinAs(app);
  await injectOk(app, 'GET', '/api/auth/session', owner.cookie);
  return owner;
}

/** A feed of the app's database whose beats are the test's own (its timer is an hour away). */
async function startFeed(app: FastifyInstance): Promise<ChangeFeed> {
  const feed = new ChangeFeed(app.db, app.log, {
    heartbeatMs: 3_600_000,
    liveSessions: (tokenHashes) => liveSessionBooks(app.db.kysely, app.config, tokenHashes),
  });
  await feed.start();
  return feed;
}

describe('the live feed heartbeat', () => {
  let testApp: TestApp | null = null;
  let feed: ChangeFeed | null = null;
  afterEach(async () => {
    await feed?.close();
    feed = null;
    await testApp?.close();
    testApp = null;
  });

  it('checks the sessions of all open streams in one query, however many streams there are', async () => {
    testApp = await buildTestApp();
    const { app } = testApp;
    const owners = await Promise.all([joinedOwner(app), joinedOwner(app), joinedOwner(app)]);
    const queries: number[] = [];
    feed = new ChangeFeed(app.db, app.log, {
      // Far beyond the test: the beats below are the test's own.
      heartbeatMs: 3_600_000,
      liveSessions: (tokenHashes) => {
        queries.push(tokenHashes.length);
        return liveSessionBooks(app.db.kysely, app.config, tokenHashes);
      },
    });
    await feed.start();

    const first = recordingStream(owners[0].userId, owners[0].cookie);
    feed.subscribe(first.subscriber);
    await feed.heartbeat();
    expect(queries).toEqual([1]);

    const streams = [first];
    for (let index = 0; index < 600; index += 1) {
      const owner = owners[index % owners.length] ?? owners[0];
      const stream = recordingStream(owner.userId, owner.cookie);
      feed.subscribe(stream.subscriber);
      streams.push(stream);
    }
    queries.length = 0;
    await feed.heartbeat();
    // 601 streams of 3 sessions: one query, naming each session once.
    expect(queries).toEqual([3]);
    for (const stream of streams) {
      expect(stream.ended).toBeNull();
      expect(stream.frames.at(-1)).toBe(': ping\n\n');
    }
  });

  it('ends at the next beat the streams of a session that has ended, and only those', async () => {
    testApp = await buildTestApp();
    const { app } = testApp;
    const owner = await joinedOwner(app);
    const other = await joinedOwner(app);
    feed = await startFeed(app);
    const leaving = recordingStream(owner.userId, owner.cookie);
    const staying = recordingStream(other.userId, other.cookie);
    // A stream claiming an owner its session is not of is ended too.
    const mismatched = recordingStream(owner.userId, other.cookie);
    for (const stream of [leaving, staying, mismatched]) feed.subscribe(stream.subscriber);

    // Logged out through the app, whose own feed is not this one: as on another instance.
    const logout = await app.inject({
      method: 'POST',
      url: '/api/auth/logout',
      headers: { cookie: owner.cookie },
    });
    expect(logout.statusCode).toBeLessThan(300);
    expect(leaving.ended).toBeNull();

    await feed.heartbeat();
    expect(leaving.ended).toBe('session ended');
    expect(mismatched.ended).toBe('session ended');
    expect(staying.ended).toBeNull();
    expect(staying.frames).toEqual([': ping\n\n']);
  });
});

describe('the live feed fan-out', () => {
  let testApp: TestApp | null = null;
  let feed: ChangeFeed | null = null;
  afterEach(async () => {
    await feed?.close();
    feed = null;
    await testApp?.close();
    testApp = null;
  });

  it('skips a backed-up stream and, once it has drained, sends it everything it missed, once', async () => {
    testApp = await buildTestApp();
    const { app } = testApp;
    const owner = await joinAs(app);
    feed = await startFeed(app);
    const steady = recordingStream(owner.userId, owner.cookie);
    const slow = recordingStream(owner.userId, owner.cookie);
    let slowBackedUp = true;
    slow.subscriber = {
      ...slow.subscriber,
      get backedUp() {
        return slowBackedUp;
      },
    };
    feed.subscribe(steady.subscriber);
    feed.subscribe(slow.subscriber);
    const changeIds = (stream: typeof steady) =>
      messageData<{ id: number }>(stream.frames, 'change').map((change) => change.id);

    const add = (lastName: string) => addClient(app, owner.cookie, 'Slow', lastName);
    await add('Reader');
    feed.wake(owner.userId);
    await vi.waitFor(() => expect(changeIds(steady)).toHaveLength(1), { timeout: 10_000 });
    expect(slow.frames).toEqual([]);

    // Another change while the slow stream is still behind, then its connection drains.
    await add('Again');
    slowBackedUp = false;
    feed.wake(owner.userId);
    await vi.waitFor(() => expect(changeIds(slow)).toHaveLength(2), { timeout: 10_000 });
    await vi.waitFor(() => expect(changeIds(steady)).toHaveLength(2), { timeout: 10_000 });
    expect(changeIds(slow)).toEqual(changeIds(steady));
    const [first, second] = changeIds(steady);
    expect(second).toBeGreaterThan(first ?? Infinity);

    // Caught up, it is an ordinary stream again: the next change reaches it like any other.
    await add('Later');
    feed.wake(owner.userId);
    await vi.waitFor(() => expect(changeIds(slow)).toHaveLength(3), { timeout: 10_000 });
    await vi.waitFor(() => expect(changeIds(steady)).toHaveLength(3), { timeout: 10_000 });
    expect(changeIds(slow)).toEqual(changeIds(steady));
  });

  it('encodes the frames once for all the streams that have seen the same changes', async () => {
    testApp = await buildTestApp();
    const { app } = testApp;
    const owner = await joinAs(app);
    feed = await startFeed(app);
    for (const lastName of ['One', 'Two']) await addClient(app, owner.cookie, 'Shared', lastName);
    const [first, second] = await eventIds(app, owner.userId);
    if (first === undefined || second === undefined) throw new Error('expected two events');

    // Two streams that have seen nothing of the two changes, one that has seen the first.
    const streams = [0, 0, first].map((lastId) => {
      const stream = recordingStream(owner.userId, owner.cookie);
      stream.subscriber.lastId = lastId;
      feed?.subscribe(stream.subscriber);
      return stream;
    });
    feed.wake(owner.userId);
    for (const stream of streams)
      await vi.waitFor(() => expect(stream.written).toHaveLength(1), { timeout: 10_000 });
    const [fromStart, alsoFromStart, fromFirst] = streams.map((stream) => stream.written[0]);

    expect(Buffer.isBuffer(fromStart)).toBe(true);
    expect(alsoFromStart).toBe(fromStart);
    expect(fromFirst).not.toBe(fromStart);
    const changeIds = (frames: string | Buffer | undefined) =>
      [...String(frames).matchAll(/^id: (\d+)$/gm)].map((match) => Number(match[1]));
    expect(changeIds(fromStart)).toEqual([first, second]);
    expect(changeIds(fromFirst)).toEqual([second]);
  });

  it('sends a stream that summarizes one frame for several changes, and a lone change as it is', async () => {
    testApp = await buildTestApp();
    const { app } = testApp;
    const owner = await joinAs(app);
    feed = await startFeed(app);
    for (const lastName of ['One', 'Two', 'Three'])
      await addClient(app, owner.cookie, 'Summed', lastName);
    const ids = await eventIds(app, owner.userId);
    const [, second, third] = ids;
    if (second === undefined || third === undefined) throw new Error('expected three events');

    // Two summarizing streams three changes behind, one a single change behind, and one that
    // gets every change.
    const streams = [
      [0, true],
      [0, true],
      [second, true],
      [0, false],
    ].map(([lastId, summarize]) => {
      const stream = recordingStream(owner.userId, owner.cookie, Boolean(summarize));
      stream.subscriber.lastId = Number(lastId);
      feed?.subscribe(stream.subscriber);
      return stream;
    });
    feed.wake(owner.userId);
    for (const stream of streams)
      await vi.waitFor(() => expect(stream.written).toHaveLength(1), { timeout: 10_000 });
    const [summarized, alsoSummarized, oneBehind, every] = streams.map(
      (stream) => stream.frames[0],
    );

    expect(streams[1]?.written[0]).toBe(streams[0]?.written[0]);
    expect(summarized).toBe(
      `id: ${third}\nevent: changes\ndata: ${JSON.stringify({ id: third, count: 3, deleted: [], settingsChanged: false })}\n\n`,
    );
    expect(alsoSummarized).toBe(summarized);
    expect(oneBehind).toMatch(new RegExp(`^id: ${third}\nevent: change\ndata: `));
    expect(oneBehind?.match(/^event:/gm)).toHaveLength(1);
    expect(every?.match(/^event: change$/gm)).toHaveLength(3);
    expect(streams.every((stream) => stream.subscriber.lastId === third)).toBe(true);
  });

  it('reaches a summarizing stream as one summary per read, and every change to the others', async () => {
    testApp = await buildTestApp();
    const { app } = testApp;
    const owner = await joinAs(app);
    // 620 changes written straight into the log (a read takes 500): every tenth a deletion.
    await app.db.kysely
      .insertInto('events')
      .values(
        Array.from({ length: 620 }, (_, at) =>
          buildEventRow(
            owner.userId,
            `BacklogClient${String(at).padStart(9, '0')}`,
            at % 10 === 9 ? 'deleted' : 'created',
          ),
        ),
      )
      .execute();
    const ids = await eventIds(app, owner.userId);
    const last = ids.at(-1);
    const fifth = ids[4];
    if (last === undefined || fifth === undefined) throw new Error('expected the events');

    feed = await startFeed(app);
    const summarizing = recordingStream(owner.userId, owner.cookie, true);
    const every = recordingStream(owner.userId, owner.cookie);
    every.subscriber.lastId = fifth;
    feed.subscribe(summarizing.subscriber);
    feed.subscribe(every.subscriber);
    feed.wake(owner.userId);
    await vi.waitFor(
      () => {
        expect(summarizing.subscriber.lastId).toBe(last);
        expect(every.subscriber.lastId).toBe(last);
      },
      { timeout: 10_000 },
    );

    const summaries = messageData<{ id: number; count: number; deleted: string[] }>(
      summarizing.frames,
      'changes',
    );
    expect(summaries.map((summary) => summary.count)).toEqual([500, 120]);
    expect(summaries.map((summary) => summary.id)).toEqual([ids[499], last]);
    expect(summaries.flatMap((summary) => summary.deleted)).toHaveLength(62);
    const changeIds = messageData<{ id: number }>(every.frames, 'change').map(
      (change) => change.id,
    );
    expect(changeIds).toEqual(ids.slice(5));
  });
});

describe('the frame of several changes', () => {
  it('counts them, names each deleted client once and says whether the settings changed', () => {
    const frame = changesFrame([
      { id: 4, action: 'created', clientId: 'a' },
      { id: 5, action: 'deleted', clientId: 'a' },
      { id: 6, action: 'settings_changed', clientId: null },
      { id: 9, action: 'deleted', clientId: 'b' },
    ]);
    expect(frame).toBe(
      'id: 9\nevent: changes\ndata: {"id":9,"count":4,"deleted":["a","b"],"settingsChanged":true}\n\n',
    );
  });
});
