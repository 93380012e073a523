import type { Generated } from 'kysely';
import type { ReminderStatus } from '../../../shared/schemas/reminders.ts';

/** The owner's reminder plan; no row means reminders are off. Flags are 0 or 1. */
export interface ReminderPlansTable {
  book_id: string;
  enabled: number;
  days_before: number | null;
  on_due: number;
  overdue_every_days: number | null;
  overdue_max: number;
  attach_pdf: number;
  /** An IANA name: the owner's "today" is reckoned in it. */
  time_zone: string;
  updated_at: number;
  /** When the sender reads the owner's charges again: 0 at once; null not before a change. */
  next_run_at: Generated<number | null>;
  /** Goes up with every change of the owner's data that may bring a step earlier. */
  book_changes: Generated<number>;
}

interface ReminderClientPausesTable {
  client_id: string;
  book_id: string;
  paused_at: number;
}

/** One row per (client, charge, step), ever: the unique index makes each step happen once. */
export interface RemindersTable {
  id: Generated<number>;
  book_id: string;
  client_id: string;
  entry_id: number;
  /** before | due | overdue-N */
  step: string;
  /** The day the step fell due, in the owner's time zone. */
  due_on: string;
  status: ReminderStatus;
  /** The same for every attempt of one e-mail, so a mail client folds a repeat. */
  message_id: string | null;
  sent_to: string | null;
  /** The instance sending it, and until when its claim holds. */
  claimed_by: string | null;
  lease_until: number | null;
  attempts: Generated<number>;
  next_attempt_at: number | null;
  last_error: string | null;
  created_at: number;
  updated_at: number;
}

export interface ReminderTables {
  reminder_plans: ReminderPlansTable;
  reminder_client_pauses: ReminderClientPausesTable;
  reminders: RemindersTable;
}
