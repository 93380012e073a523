import type { Transaction } from 'kysely';
import type { Database, Db } from '../../db/database.ts';
import { insertEvents, lockOwnerLog, type NewEvent } from './events.repository.ts';
import type { ChangeFeed } from './feed.ts';

export type { NewEvent };

/** Records the events of a change, inside its transaction. */
export type RecordEvents = (events: NewEvent | readonly NewEvent[]) => Promise<void>;

export interface ChangeContext {
  trx: Transaction<Database>;
  record: RecordEvents;
  /** The change's one moment (epoch milliseconds): rows and events carry the same time. */
  now: number;
}

/** Returned by a change that found nothing to do: what it wrote is rolled back, nobody is woken. */
class Unchanged<T> extends Error {
  readonly value: T;
  constructor(value: T) {
    super('unchanged');
    this.value = value;
  }
}

export const unchanged = <T>(value: T) => new Unchanged(value);

/**
 * The one way an owner's data changes. A command's rows and the events that describe them are
 * written in one transaction (once it records its events, the owner's other writers wait their
 * turn until it commits); the owner's live streams are woken only by the commit. A change that records no event is refused (and rolled
 * back): the client list's kept answers, the live streams and the history all rely on one.
 */
export class WritePath {
  readonly #db: Db;
  readonly #feed: ChangeFeed;

  constructor(db: Db, feed: ChangeFeed) {
    this.#db = db;
    this.#feed = feed;
  }

  async change<T>(
    ownerId: string,
    work: (context: ChangeContext) => Promise<T | Unchanged<T>>,
  ): Promise<T> {
    const now = Date.now();
    const outcome = await this.#db.kysely
      .transaction()
      .execute(async (trx) => {
        let recorded = 0;
        const record: RecordEvents = async (events) => {
          const list = Array.isArray(events) ? events : [events as NewEvent];
          // Taken as late as possible: a command refused on what it read never waits its turn.
          if (recorded === 0) await lockOwnerLog(trx, this.#db.dialect, ownerId);
          recorded += list.length;
          await insertEvents(trx, ownerId, now, list);
        };
        const result = await work({ trx, record, now });
        // Thrown to roll back whatever an unchanged command may have written.
        if (result instanceof Unchanged) throw result;
        if (recorded === 0) throw new Error('a change of an owner’s data must record an event');
        await this.#feed.announce(trx, ownerId);
        return result;
      })
      .catch((error: unknown) => {
        if (error instanceof Unchanged) return error as Unchanged<T>;
        throw error;
      });
    if (outcome instanceof Unchanged) return outcome.value;
    // The fan-out to live streams runs after the answer's turn: the write never waits for it.
    this.#feed.committed(ownerId);
    return outcome;
  }

  /**
   * Removes an owner altogether (their account deleted): `work` deletes the rows, the log
   * included, so there is no event to record. The owner's writers still take their turn first,
   * so none commits into an account being deleted; after the commit this instance's streams of
   * the owner end at once (on other instances at their next heartbeat, the session being gone).
   */
  async removeOwner<T>(
    ownerId: string,
    work: (trx: Transaction<Database>) => Promise<T>,
  ): Promise<T> {
    const result = await this.#db.kysely.transaction().execute(async (trx) => {
      await lockOwnerLog(trx, this.#db.dialect, ownerId);
      return work(trx);
    });
    this.#feed.endOwner(ownerId);
    return result;
  }
}
