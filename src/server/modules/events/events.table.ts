import type { Generated } from 'kysely';
import type { EventAction } from '../../../shared/schemas/events.ts';

/** The append-only log of every change of an owner's data; a client's history is its slice. */
export interface EventsTable {
  id: Generated<number>;
  owner_id: string;
  /** The client changed, or null for a change of the owner's settings. */
  client_id: string | null;
  action: EventAction;
  at: number;
  version: number;
  /** JSON of the client's fields before and after the change; null where there is no such side. */
  before: string | null;
  after: string | null;
  /** JSON of the ledger entry the change recorded, if any. */
  detail: string | null;
}

export interface EventTables {
  events: EventsTable;
}
