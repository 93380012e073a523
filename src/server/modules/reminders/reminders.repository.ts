import type { Transaction, Updateable } from 'kysely';
import type { ReminderPlan } from '../../../shared/schemas/reminders.ts';
import type { Database, Executor } from '../../db/database.ts';
import type { RemindersTable } from './reminders.table.ts';

/**
 * When the sender is to read the owner's charges again, unless the owner's data changed since
 * it read them (then the change's "at once" stands). Bookkeeping of the sender, not the owner's
 * data: no event (decision 029).
 */
export async function keepNextRun(
  db: Executor,
  bookId: string,
  next: { at: number | null; bookChanges: number },
): Promise<void> {
  await db
    .updateTable('reminder_plans')
    .set({ next_run_at: next.at })
    .where('book_id', '=', bookId)
    .where('book_changes', '=', next.bookChanges)
    .execute();
}

/** In the change's transaction: the sender reads the owner's charges at its next run. */
export async function lookAtOnNextRun(trx: Transaction<Database>, bookId: string): Promise<void> {
  await trx
    .updateTable('reminder_plans')
    .set((eb) => ({ next_run_at: 0, book_changes: eb('book_changes', '+', 1) }))
    .where('book_id', '=', bookId)
    .execute();
}

export async function writePlan(
  trx: Transaction<Database>,
  bookId: string,
  plan: ReminderPlan,
  now: number,
): Promise<void> {
  const values = {
    enabled: plan.enabled ? 1 : 0,
    days_before: plan.daysBefore,
    on_due: plan.onDueDate ? 1 : 0,
    overdue_every_days: plan.overdueEveryDays,
    overdue_max: plan.overdueMax,
    attach_pdf: plan.attachPdf ? 1 : 0,
    time_zone: plan.timeZone,
    updated_at: now,
  };
  await trx
    .insertInto('reminder_plans')
    .values({ book_id: bookId, ...values })
    .onConflict((conflict) => conflict.column('book_id').doUpdateSet(values))
    .execute();
}

export async function writeClientPause(
  trx: Transaction<Database>,
  bookId: string,
  clientId: string,
  paused: boolean,
  now: number,
): Promise<void> {
  if (paused)
    await trx
      .insertInto('reminder_client_pauses')
      .values({ client_id: clientId, book_id: bookId, paused_at: now })
      .onConflict((conflict) => conflict.column('client_id').doNothing())
      .execute();
  else
    await trx
      .deleteFrom('reminder_client_pauses')
      .where('client_id', '=', clientId)
      .where('book_id', '=', bookId)
      .execute();
}

export interface NewReminder {
  clientId: string;
  entryId: number;
  step: string;
  dueOn: string;
}

/** Inserts what no one has recorded yet; a step someone else holds is left out of the answer. */
export async function insertReminders(
  trx: Transaction<Database>,
  bookId: string,
  reminders: readonly NewReminder[],
  fields: Pick<RemindersTable, 'status' | 'claimed_by' | 'lease_until' | 'sent_to'>,
  now: number,
): Promise<{ id: number; clientId: string; entryId: number; step: string }[]> {
  const inserted: { id: number; clientId: string; entryId: number; step: string }[] = [];
  for (let start = 0; start < reminders.length; start += 200) {
    const rows = await trx
      .insertInto('reminders')
      .values(
        reminders.slice(start, start + 200).map((reminder) => ({
          book_id: bookId,
          client_id: reminder.clientId,
          entry_id: reminder.entryId,
          step: reminder.step,
          due_on: reminder.dueOn,
          ...fields,
          created_at: now,
          updated_at: now,
        })),
      )
      .onConflict((conflict) => conflict.columns(['client_id', 'entry_id', 'step']).doNothing())
      .returning(['id', 'client_id as clientId', 'entry_id as entryId', 'step'])
      .execute();
    inserted.push(
      ...rows.map((row) => ({ ...row, id: Number(row.id), entryId: Number(row.entryId) })),
    );
  }
  return inserted;
}

export async function setMessageId(
  trx: Transaction<Database>,
  ids: readonly number[],
  messageId: string,
): Promise<void> {
  await trx
    .updateTable('reminders')
    .set({ message_id: messageId })
    .where('id', 'in', ids)
    .execute();
}

/**
 * Takes an e-mail's reminders again for this instance, if they are still stale: a row another
 * instance took meanwhile no longer matches (PostgreSQL checks the condition again once the
 * other's lock is gone), so only one instance gets them.
 */
export async function retakeMessage(
  trx: Transaction<Database>,
  bookId: string,
  messageId: string,
  claimedBy: string,
  leaseUntil: number,
  now: number,
): Promise<{ id: number; clientId: string; entryId: number; step: string; attempts: number }[]> {
  const rows = await trx
    .updateTable('reminders')
    .set({ status: 'sending', claimed_by: claimedBy, lease_until: leaseUntil, updated_at: now })
    .where('book_id', '=', bookId)
    .where('message_id', '=', messageId)
    .where((eb) =>
      eb.or([
        eb.and([eb('status', '=', 'sending'), eb('lease_until', '<', now)]),
        eb.and([eb('status', '=', 'retrying'), eb('next_attempt_at', '<=', now)]),
      ]),
    )
    .returning(['id', 'client_id as clientId', 'entry_id as entryId', 'step', 'attempts'])
    .execute();
  return rows.map((row) => ({ ...row, id: Number(row.id), entryId: Number(row.entryId) }));
}

/** Only while this instance still holds them: a claim that expired belongs to whoever took it. */
export async function finishReminders(
  trx: Transaction<Database>,
  ids: readonly number[],
  claimedBy: string,
  fields: Pick<
    Updateable<RemindersTable>,
    'status' | 'sent_to' | 'next_attempt_at' | 'last_error' | 'attempts'
  >,
  now: number,
): Promise<number> {
  const rows = await trx
    .updateTable('reminders')
    .set({ ...fields, lease_until: null, updated_at: now })
    .where('id', 'in', ids)
    .where('claimed_by', '=', claimedBy)
    .where('status', '=', 'sending')
    .returning('id')
    .execute();
  return rows.length;
}
