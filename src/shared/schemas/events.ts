import { z } from 'zod/mini';
import { clientSnapshotSchema } from './clients.ts';
import { entryDetailSchema } from './ledger.ts';
import { bookRoleSchema } from './books.ts';
import { reminderDetailSchema } from './reminders.ts';

export { type EntryDetail } from './ledger.ts';

/**
 * Every kind of change the owner's log records, in one place. `balance_changed` is the balance
 * set by hand (recorded as an adjustment entry); `entry_recorded` and `entry_voided` are the
 * ledger's other changes. `restored` marks a client brought back from an export file, after the
 * history the file carried. `statement_sent` is a statement e-mailed to the client (the snapshot
 * holds the address it went to); it changes nothing of the client. `link_created`,
 * `link_revoked` and `link_opened` are the client's private link made (or replaced), revoked,
 * and opened by the client (at most once an hour); `language_set` is the client's own language.
 * `reminder_sent` and
 * `reminder_failed` are a payment reminder e-mailed (or marked as sent by hand) and one given up
 * after its retries (the event's `reminder` says which charges, step and address);
 * `reminders_changed` turns one client's reminders on or off.
 */
export const eventActions = [
  'created',
  'edited',
  'balance_changed',
  'deleted',
  'imported',
  'entry_recorded',
  'entry_voided',
  'settings_changed',
  'restored',
  'statement_sent',
  'link_created',
  'link_revoked',
  'link_opened',
  'language_set',
  'reminder_sent',
  'reminder_failed',
  'reminders_changed',
  'members_changed',
  'lock_date_set',
] as const;
export type EventAction = (typeof eventActions)[number];

/** The data of a `change` message on the live stream: which thing changed, not its contents. */
export interface ChangeEvent {
  id: number;
  // A server newer than this page may send actions it does not know: still a change to fetch.
  action: string;
  clientId: string | null;
}

/**
 * The data of a `changes` message: several changes sent as one to a stream opened with
 * `summarize=true` (the web app's). `id` is the last of them, `count` how many there were; the
 * clients among them that were deleted, and whether the settings changed, are named because a
 * page shows those; any other change only means "fetch again".
 */
export interface ChangesSummary {
  id: number;
  count: number;
  deleted: string[];
  settingsChanged: boolean;
}

/** GET /api/events: where to resume, and whether several changes may come as one message. */
export const eventStreamQuerySchema = z.object({
  // Not checked here: an id that is not a whole number starts the stream afresh.
  lastEventId: z.optional(z.string()),
  summarize: z.optional(z.enum(['true', 'false'], 'Use true or false.')),
});

/** Who joined a book, was invited, changed role or left (`members_changed`, issue 58). */
export const memberDetailSchema = z.object({
  change: z.enum(['invited', 'invitation_revoked', 'joined', 'role_changed', 'removed']),
  email: z.string(),
  role: bookRoleSchema,
  userId: z.optional(z.string()),
});
export type MemberDetail = z.infer<typeof memberDetailSchema>;

/** The day a book is closed up to, as an owner set it (`lock_date_set`, issue 59). */
export const closingDetailSchema = z.object({
  lockDate: z.nullable(z.string()),
  previous: z.nullable(z.string()),
});
export type ClosingDetail = z.infer<typeof closingDetailSchema>;

export const historyEntrySchema = z.object({
  id: z.number(),
  // Not an enum: an action this version does not know is shown generically, never refused.
  action: z.string(),
  at: z.string(),
  version: z.number(),
  before: z.nullable(clientSnapshotSchema),
  after: z.nullable(clientSnapshotSchema),
  /** The ledger entry the change recorded, if any. */
  entry: z.nullable(entryDetailSchema),
  /** What a reminder event sent. */
  reminder: z.optional(reminderDetailSchema),
  member: z.optional(memberDetailSchema),
  closing: z.optional(closingDetailSchema),
  /** The e-mail of the person who made the change; null when nobody did (or unknown, before). */
  by: z.optional(z.nullable(z.string())),
});
export type HistoryEntry = z.infer<typeof historyEntrySchema>;

export const historyListSchema = z.object({ entries: z.array(historyEntrySchema) });
