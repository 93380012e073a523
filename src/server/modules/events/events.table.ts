import type { Generated } from 'kysely';
import type { EventAction } from '../../../shared/schemas/events.ts';

export interface EventsTable {
  id: Generated<number>;
  book_id: string;
  client_id: string | null;
  action: EventAction;
  at: number;
  version: number;
  before: string | null;
  after: string | null;
  detail: string | null;
  /** Who acted (migration 0045): the person's id, and the access token's if one was used. */
  actor_id: Generated<string | null>;
  actor_token_id: Generated<string | null>;
}

export interface EventTables {
  events: EventsTable;
}
