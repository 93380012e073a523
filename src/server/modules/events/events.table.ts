import type { Generated } from 'kysely';
import type { EventAction } from '../../../shared/schemas/events.ts';

export interface EventsTable {
  id: Generated<number>;
  owner_id: string;
  client_id: string | null;
  action: EventAction;
  at: number;
  version: number;
  before: string | null;
  after: string | null;
  detail: string | null;
}

export interface EventTables {
  events: EventsTable;
}
