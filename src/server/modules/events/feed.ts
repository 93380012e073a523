import { setTimeout as sleep } from 'node:timers/promises';
import { sql, type Kysely, type Transaction } from 'kysely';
import pg from 'pg';
import type { FastifyBaseLogger } from 'fastify';
import type { ChangeEvent, ChangesSummary } from '../../../shared/schemas/events.ts';
import type { Database, Db } from '../../db/database.ts';
import { readEventsAfter } from './events.queries.ts';

export interface Subscriber {
  bookId: string;
  /** The member it streams to: removed from the book, their streams end (`endMember`). */
  userId: string;
  /** A collector's clients: only their events (and those of no client) reach the stream. */
  clients: ReadonlySet<string> | null;
  sessionTokenHash: string;
  lastId: number;
  /** The web app only needs to know what to fetch again: one `changes` frame for several. */
  readonly summarize: boolean;
  write(frames: string | Buffer): void;
  /** A slow reader is skipped, not buffered for, and wakes its owner again once drained. */
  readonly backedUp: boolean;
  /** `sessionEnded` tells the browser not to come back with this session. */
  close(sessionEnded?: boolean): void;
}

export interface FeedOptions {
  heartbeatMs: number;
  /** PostgreSQL: a listener connection not made within this time is tried again. */
  connectTimeoutMs?: number;
  /** One query for them all. */
  liveSessions(tokenHashes: readonly string[]): Promise<ReadonlyMap<string, string>>;
}

function changeFrame(event: ChangeEvent): string {
  return `id: ${event.id}\nevent: change\ndata: ${JSON.stringify(event)}\n\n`;
}

export function changesFrame(events: readonly ChangeEvent[]): string {
  const id = events.at(-1)?.id ?? 0;
  const deleted = new Set<string>();
  let settingsChanged = false;
  for (const event of events) {
    if (event.action === 'deleted' && event.clientId !== null) deleted.add(event.clientId);
    if (event.action === 'settings_changed') settingsChanged = true;
  }
  const summary: ChangesSummary = {
    id,
    count: events.length,
    deleted: [...deleted],
    settingsChanged,
  };
  return `id: ${id}\nevent: changes\ndata: ${JSON.stringify(summary)}\n\n`;
}

const heartbeatFrame = Buffer.from(': ping\n\n');

const channel = 'balance_events';
const batchSize = 500;
const reconnectDelayMs = 1000;
const fanOutSlice = 64;
const maxRestMs = 500;

/**
 * Events are always read from the database, so a lost or doubled wake-up costs only time (at most
 * a heartbeat, which wakes every owner). The heartbeat costs a write per stream, never a query.
 */
export class ChangeFeed {
  readonly #db: Kysely<Database>;
  readonly #dialect: Db['dialect'];
  readonly #connectionString: string | null;
  readonly #log: FastifyBaseLogger;
  readonly #options: FeedOptions;
  readonly #subscribers = new Map<string, Set<Subscriber>>();
  readonly #pumping = new Map<string, Promise<void>>();
  readonly #again = new Set<string>();
  #listener: pg.Client | null = null;
  #closed = false;
  #reconnectTimer: NodeJS.Timeout | null = null;
  #heartbeatTimer: NodeJS.Timeout | null = null;
  #beating: Promise<void> | null = null;

  constructor(db: Db, log: FastifyBaseLogger, options: FeedOptions) {
    this.#db = db.kysely;
    this.#dialect = db.dialect;
    this.#connectionString = db.config.dialect === 'postgres' ? db.config.connectionString : null;
    this.#log = log;
    this.#options = options;
  }

  async start(): Promise<void> {
    this.#heartbeatTimer = setInterval(() => void this.heartbeat(), this.#options.heartbeatMs);
    if (this.#connectionString) await this.#listen();
  }

  heartbeat(): Promise<void> {
    this.#beating ??= this.#beat()
      .catch((error: unknown) => this.#log.error({ err: error }, 'live stream heartbeat failed'))
      .finally(() => (this.#beating = null));
    return this.#beating;
  }

  async #beat(): Promise<void> {
    const checked = new Set<string>();
    for (const set of this.#subscribers.values())
      for (const subscriber of set) checked.add(subscriber.sessionTokenHash);
    if (checked.size === 0) return;
    let users: ReadonlyMap<string, string> | null = null;
    try {
      users = await this.#options.liveSessions([...checked]);
    } catch (error) {
      // The database is away: keep the streams (they would only reconnect and be refused).
      this.#log.warn({ err: error }, 'live stream session check failed');
    }
    let written = 0;
    for (const [bookId, set] of [...this.#subscribers]) {
      for (const subscriber of [...set]) {
        // A stream opened while the query ran was checked when it opened.
        const ended =
          users !== null &&
          checked.has(subscriber.sessionTokenHash) &&
          users.get(subscriber.sessionTokenHash) !== bookId;
        if (ended) subscriber.close(true);
        else if (!subscriber.backedUp) subscriber.write(heartbeatFrame);
        written += 1;
        if (written % fanOutSlice === 0) await new Promise(setImmediate);
      }
    }
    this.#wakeAll();
  }

  /** NOTIFY in the transaction: sent only on commit, and no round trip of its own after it. */
  async announce(trx: Transaction<Database>, bookId: string): Promise<void> {
    if (this.#dialect === 'postgres')
      await sql`select pg_notify(${channel}, ${bookId})`.execute(trx);
  }

  committed(bookId: string): void {
    if (this.#dialect !== 'postgres') this.wake(bookId);
  }

  openStreams(bookId: string, sessionTokenHash: string): { owner: number; session: number } {
    const set = this.#subscribers.get(bookId);
    let session = 0;
    for (const subscriber of set ?? [])
      if (subscriber.sessionTokenHash === sessionTokenHash) session += 1;
    return { owner: set?.size ?? 0, session };
  }

  subscribe(subscriber: Subscriber): void {
    let set = this.#subscribers.get(subscriber.bookId);
    if (!set) this.#subscribers.set(subscriber.bookId, (set = new Set()));
    set.add(subscriber);
  }

  unsubscribe(subscriber: Subscriber): void {
    const set = this.#subscribers.get(subscriber.bookId);
    set?.delete(subscriber);
    if (set?.size === 0) this.#subscribers.delete(subscriber.bookId);
  }

  endSession(bookId: string, sessionTokenHash: string): void {
    for (const subscriber of [...(this.#subscribers.get(bookId) ?? [])]) {
      if (subscriber.sessionTokenHash === sessionTokenHash) subscriber.close(true);
    }
  }

  /** A member removed or their role changed: their streams of the book end at once. */
  endMember(bookId: string, userId: string): void {
    for (const subscriber of [...(this.#subscribers.get(bookId) ?? [])]) {
      if (subscriber.userId === userId) subscriber.close(true);
    }
  }

  endOwner(bookId: string): void {
    for (const subscriber of [...(this.#subscribers.get(bookId) ?? [])]) subscriber.close(true);
  }

  get subscriberCount(): number {
    let count = 0;
    for (const set of this.#subscribers.values()) count += set.size;
    return count;
  }

  wake(bookId: string): void {
    if (!this.#subscribers.has(bookId)) return;
    if (this.#pumping.has(bookId)) {
      this.#again.add(bookId);
      return;
    }
    const run = this.#pumpAndRest(bookId)
      .catch((error: unknown) => this.#log.error({ err: error }, 'live update delivery failed'))
      .finally(() => {
        this.#pumping.delete(bookId);
        if (this.#again.delete(bookId)) this.wake(bookId);
      });
    this.#pumping.set(bookId, run);
  }

  /** Resting as long as it took keeps the fan-out to about half of the request thread. */
  async #pumpAndRest(bookId: string): Promise<void> {
    const started = performance.now();
    await this.#pump(bookId);
    const rest = Math.min(performance.now() - started, maxRestMs);
    if (rest >= 1 && !this.#closed) await sleep(rest);
  }

  async #pump(bookId: string): Promise<void> {
    for (;;) {
      const subscribers = [...(this.#subscribers.get(bookId) ?? [])].filter(
        (subscriber) => !subscriber.backedUp,
      );
      if (subscribers.length === 0) return;
      let from = Infinity;
      for (const subscriber of subscribers) from = Math.min(from, subscriber.lastId);
      const events = await readEventsAfter(this.#db, bookId, from, batchSize);
      if (events.length === 0) return;
      const last = events[events.length - 1]?.id ?? from;
      // Encoded once per starting point and kind of stream, not once per stream.
      const encoded = new Map<string, Buffer>();
      for (const [index, subscriber] of subscribers.entries()) {
        const seen = subscriber.lastId;
        if (seen < last) {
          const { clients } = subscriber;
          const key = `${subscriber.summarize ? 'summary' : 'each'} ${seen} ${clients ? subscriber.userId : '*'}`;
          let bytes = encoded.get(key);
          if (bytes === undefined) {
            const unseen = events.filter(
              (event) =>
                event.id > seen &&
                (clients === null || event.clientId === null || clients.has(event.clientId)),
            );
            const text =
              subscriber.summarize && unseen.length > 1
                ? changesFrame(unseen)
                : unseen.map(changeFrame).join('');
            bytes = Buffer.from(text);
            encoded.set(key, bytes);
          }
          subscriber.write(bytes);
          subscriber.lastId = last;
        }
        // Let waiting requests run between slices of a large fan-out.
        if (index % fanOutSlice === fanOutSlice - 1) await new Promise(setImmediate);
      }
      if (events.length < batchSize) return;
    }
  }

  #wakeAll(): void {
    for (const bookId of this.#subscribers.keys()) this.wake(bookId);
  }

  async #listen(): Promise<void> {
    if (this.#closed || !this.#connectionString) return;
    // Bounded, so a server that accepts connections but never answers cannot hold the start.
    const client = new pg.Client({
      connectionString: this.#connectionString,
      connectionTimeoutMillis: this.#options.connectTimeoutMs ?? 0,
    });
    this.#listener = client;
    let failed = false;
    const fail = (error: unknown) => {
      if (failed || this.#closed) return;
      failed = true;
      this.#log.warn({ err: error }, 'live update listener lost; reconnecting');
      if (this.#listener === client) this.#listener = null;
      client.removeAllListeners();
      client.on('error', () => {});
      client.end().catch(() => {});
      this.#reconnectTimer = setTimeout(() => void this.#listen(), reconnectDelayMs);
    };
    client.on('error', fail);
    client.on('end', () => fail(new Error('listener connection ended')));
    client.on('notification', (message) => {
      if (message.channel === channel && message.payload) this.wake(message.payload);
    });
    try {
      await client.connect();
      await client.query(`listen ${channel}`);
    } catch (error) {
      fail(error);
      return;
    }
    // Anything committed while we were not listening is in the database: catch up now.
    this.#wakeAll();
  }

  get listening(): boolean {
    return this.#connectionString === null || this.#listener !== null;
  }

  async listenerPid(): Promise<number | null> {
    const listener = this.#listener;
    if (!listener) return null;
    const result = await listener.query<{ pid: number }>('select pg_backend_pid() as pid');
    return result.rows[0]?.pid ?? null;
  }

  async close(): Promise<void> {
    this.#closed = true;
    if (this.#reconnectTimer) clearTimeout(this.#reconnectTimer);
    if (this.#heartbeatTimer) clearInterval(this.#heartbeatTimer);
    for (const set of this.#subscribers.values()) for (const subscriber of set) subscriber.close();
    this.#subscribers.clear();
    await Promise.allSettled([...this.#pumping.values(), this.#beating]);
    const listener = this.#listener;
    this.#listener = null;
    if (listener) {
      listener.removeAllListeners();
      listener.on('error', () => {});
      await listener.end().catch(() => {});
    }
  }
}
