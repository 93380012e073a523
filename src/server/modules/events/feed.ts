import { sql, type Kysely } from 'kysely';
import pg from 'pg';
import type { FastifyBaseLogger } from 'fastify';
import type { ChangeEvent } from '../../../shared/schemas/events.ts';
import type { Database, Db } from '../../db/database.ts';
import { readEventsAfter } from './events.repository.ts';

/** One open live stream: it has seen the owner's events up to `lastId`. */
export interface Subscriber {
  ownerId: string;
  /** The session the stream was opened with: it ends with it. */
  sessionTokenHash: string;
  lastId: number;
  send(event: ChangeEvent): void;
  /** Ends the stream; `sessionEnded` tells the browser not to come back with this session. */
  close(sessionEnded?: boolean): void;
}

const channel = 'balance_events';
const batchSize = 500;
const reconnectDelayMs = 1000;
const fanOutSlice = 64;

/**
 * Tells every open stream of an owner about that owner's new events. The events themselves are
 * always read from the database, so a wake-up that is lost or doubled costs nothing but time.
 * With PostgreSQL, wake-ups travel between instances by LISTEN/NOTIFY.
 */
export class ChangeFeed {
  readonly #db: Kysely<Database>;
  readonly #dialect: Db['dialect'];
  readonly #connectionString: string | null;
  readonly #log: FastifyBaseLogger;
  readonly #subscribers = new Map<string, Set<Subscriber>>();
  readonly #pumping = new Map<string, Promise<void>>();
  readonly #again = new Set<string>();
  #listener: pg.Client | null = null;
  #closed = false;
  #reconnectTimer: NodeJS.Timeout | null = null;

  constructor(db: Db, log: FastifyBaseLogger) {
    this.#db = db.kysely;
    this.#dialect = db.dialect;
    this.#connectionString = db.config.dialect === 'postgres' ? db.config.connectionString : null;
    this.#log = log;
  }

  async start(): Promise<void> {
    if (this.#connectionString) await this.#listen();
  }

  /** After a commit: wakes this owner's streams here, and on PostgreSQL on every instance. */
  async publish(ownerId: string): Promise<void> {
    if (this.#dialect === 'postgres') {
      await sql`select pg_notify(${channel}, ${ownerId})`.execute(this.#db);
      return;
    }
    this.wake(ownerId);
  }

  /** publish() for after a commit: the change is already safe, so a failed wake-up is only logged. */
  async publishSafely(ownerId: string): Promise<void> {
    try {
      await this.publish(ownerId);
    } catch (error) {
      this.#log.warn({ err: error }, 'could not announce a change to live streams');
    }
  }

  /** How many streams this owner, and this one session of theirs, have open here. */
  openStreams(ownerId: string, sessionTokenHash: string): { owner: number; session: number } {
    const set = this.#subscribers.get(ownerId);
    let session = 0;
    for (const subscriber of set ?? [])
      if (subscriber.sessionTokenHash === sessionTokenHash) session += 1;
    return { owner: set?.size ?? 0, session };
  }

  subscribe(subscriber: Subscriber): void {
    let set = this.#subscribers.get(subscriber.ownerId);
    if (!set) this.#subscribers.set(subscriber.ownerId, (set = new Set()));
    set.add(subscriber);
  }

  unsubscribe(subscriber: Subscriber): void {
    const set = this.#subscribers.get(subscriber.ownerId);
    set?.delete(subscriber);
    if (set?.size === 0) this.#subscribers.delete(subscriber.ownerId);
  }

  /** Ends this instance's streams of a session that has just ended (others notice at their next heartbeat). */
  endSession(ownerId: string, sessionTokenHash: string): void {
    for (const subscriber of [...(this.#subscribers.get(ownerId) ?? [])]) {
      if (subscriber.sessionTokenHash === sessionTokenHash) subscriber.close(true);
    }
  }

  get subscriberCount(): number {
    let count = 0;
    for (const set of this.#subscribers.values()) count += set.size;
    return count;
  }

  /** Sends the owner's streams whatever they have not seen; one database read serves them all. */
  wake(ownerId: string): void {
    if (!this.#subscribers.has(ownerId)) return;
    if (this.#pumping.has(ownerId)) {
      this.#again.add(ownerId);
      return;
    }
    const run = this.#pump(ownerId)
      .catch((error: unknown) => this.#log.error({ err: error }, 'live update delivery failed'))
      .finally(() => {
        this.#pumping.delete(ownerId);
        if (this.#again.delete(ownerId)) this.wake(ownerId);
      });
    this.#pumping.set(ownerId, run);
  }

  async #pump(ownerId: string): Promise<void> {
    for (;;) {
      const subscribers = [...(this.#subscribers.get(ownerId) ?? [])];
      if (subscribers.length === 0) return;
      const from = Math.min(...subscribers.map((subscriber) => subscriber.lastId));
      const events = await readEventsAfter(this.#db, ownerId, from, batchSize);
      for (const [index, subscriber] of subscribers.entries()) {
        for (const event of events) {
          if (event.id > subscriber.lastId) {
            subscriber.send(event);
            subscriber.lastId = event.id;
          }
        }
        // Let waiting requests run between slices of a large fan-out.
        if (index % fanOutSlice === fanOutSlice - 1) await new Promise(setImmediate);
      }
      if (events.length < batchSize) return;
    }
  }

  #wakeAll(): void {
    for (const ownerId of this.#subscribers.keys()) this.wake(ownerId);
  }

  /** Listens for wake-ups from every instance; a lost connection is made again, then we catch up. */
  async #listen(): Promise<void> {
    if (this.#closed || !this.#connectionString) return;
    const client = new pg.Client({ connectionString: this.#connectionString });
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

  /** True while the PostgreSQL listener is connected (always true on SQLite, which needs none). */
  get listening(): boolean {
    return this.#connectionString === null || this.#listener !== null;
  }

  /** The listener's server process id, so a test can cut its connection. */
  async listenerPid(): Promise<number | null> {
    const listener = this.#listener;
    if (!listener) return null;
    const result = await listener.query<{ pid: number }>('select pg_backend_pid() as pid');
    return result.rows[0]?.pid ?? null;
  }

  /** Ends every stream and stops listening; the app's close waits for nothing of ours after this. */
  async close(): Promise<void> {
    this.#closed = true;
    if (this.#reconnectTimer) clearTimeout(this.#reconnectTimer);
    for (const set of this.#subscribers.values()) for (const subscriber of set) subscriber.close();
    this.#subscribers.clear();
    await Promise.allSettled(this.#pumping.values());
    const listener = this.#listener;
    this.#listener = null;
    if (listener) {
      listener.removeAllListeners();
      listener.on('error', () => {});
      await listener.end().catch(() => {});
    }
  }
}
