// What this module's routes, commands and sender read. Changes go through reminders.commands.ts,
// with the SQL of reminders.repository.ts.
import type { Selectable } from 'kysely';
import type { ReminderPlan, ReminderStatus } from '../../../shared/schemas/reminders.ts';
import type { Executor } from '../../db/database.ts';
import type { ReminderPlansTable } from './reminders.table.ts';

/** Off, the server's time zone, and the steps most owners would pick once they turn it on. */
function defaultPlan(): ReminderPlan {
  return {
    enabled: false,
    daysBefore: 3,
    onDueDate: true,
    overdueEveryDays: 7,
    overdueMax: 3,
    attachPdf: false,
    timeZone: Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC',
  };
}

const toPlan = (row: Selectable<ReminderPlansTable>): ReminderPlan => ({
  enabled: row.enabled === 1,
  daysBefore: row.days_before,
  onDueDate: row.on_due === 1,
  overdueEveryDays: row.overdue_every_days,
  overdueMax: row.overdue_max,
  attachPdf: row.attach_pdf === 1,
  timeZone: row.time_zone,
});

export async function readPlan(db: Executor, bookId: string): Promise<ReminderPlan> {
  const row = await db
    .selectFrom('reminder_plans')
    .selectAll()
    .where('book_id', '=', bookId)
    .executeTakeFirst();
  return row ? toPlan(row) : defaultPlan();
}

export interface PlanToLookAt {
  bookId: string;
  plan: ReminderPlan;
  /** The owner's count of changes when read: the sender's next time stands only if still so. */
  bookChanges: number;
}

/** The owners whose next step may have come: the sender reads nobody else's charges. */
export async function plansToLookAt(db: Executor, now: number): Promise<PlanToLookAt[]> {
  // A disabled account's clients hear nothing more from it, as its links stop at once.
  const rows = await db
    .selectFrom('reminder_plans')
    .innerJoin('users', 'users.id', 'reminder_plans.book_id')
    .selectAll('reminder_plans')
    .where('reminder_plans.enabled', '=', 1)
    .where('reminder_plans.next_run_at', '<=', now)
    .where('users.disabled_at', 'is', null)
    .execute();
  return rows.map((row) => ({
    bookId: row.book_id,
    plan: toPlan(row),
    bookChanges: row.book_changes,
  }));
}

export async function pausedClientIds(db: Executor, bookId: string): Promise<Set<string>> {
  const rows = await db
    .selectFrom('reminder_client_pauses')
    .select('client_id')
    .where('book_id', '=', bookId)
    .execute();
  return new Set(rows.map((row) => row.client_id));
}

export async function isClientPaused(
  db: Executor,
  bookId: string,
  clientId: string,
): Promise<boolean> {
  const row = await db
    .selectFrom('reminder_client_pauses')
    .select('client_id')
    .where('book_id', '=', bookId)
    .where('client_id', '=', clientId)
    .executeTakeFirst();
  return row !== undefined;
}

/** The steps recorded for these charges, whatever became of them. */
export async function recordedSteps(
  db: Executor,
  bookId: string,
  entryIds: readonly number[],
): Promise<{ clientId: string; entryId: number; step: string }[]> {
  const found: { clientId: string; entryId: number; step: string }[] = [];
  for (let start = 0; start < entryIds.length; start += 500) {
    const rows = await db
      .selectFrom('reminders')
      .select(['client_id as clientId', 'entry_id as entryId', 'step'])
      .where('book_id', '=', bookId)
      .where('entry_id', 'in', entryIds.slice(start, start + 500))
      .execute();
    found.push(...rows.map((row) => ({ ...row, entryId: Number(row.entryId) })));
  }
  return found;
}

/** One e-mail whose sender died (lease over) or whose retry has come, not yet taken again. */
export async function staleMessages(
  db: Executor,
  now: number,
): Promise<{ bookId: string; messageId: string }[]> {
  const rows = await db
    .selectFrom('reminders')
    .select(['book_id as bookId', 'message_id as messageId'])
    .where((eb) =>
      eb.or([
        eb.and([eb('status', '=', 'sending'), eb('lease_until', '<', now)]),
        eb.and([eb('status', '=', 'retrying'), eb('next_attempt_at', '<=', now)]),
      ]),
    )
    .where('message_id', 'is not', null)
    .distinct()
    .limit(100)
    .execute();
  return rows.flatMap((row) =>
    row.messageId === null ? [] : [{ bookId: row.bookId, messageId: row.messageId }],
  );
}

export async function listReminders(
  db: Executor,
  bookId: string,
  status: ReminderStatus | undefined,
  limit: number,
) {
  let query = db.selectFrom('reminders').selectAll().where('book_id', '=', bookId);
  query = status ? query.where('status', '=', status) : query.where('status', '!=', 'skipped');
  const rows = await query.orderBy('id', 'desc').limit(limit).execute();
  return rows.map((row) => ({ ...row, id: Number(row.id), entry_id: Number(row.entry_id) }));
}
