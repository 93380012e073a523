import type { ReminderDetail, ReminderPlan } from '../../../shared/schemas/reminders.ts';
import { clientLinkExpiryDays } from '../../../shared/schemas/client-links.ts';
import { reminderMaker, replaceClientLink } from '../client-links/client-links.commands.ts';
import { findClient, toSnapshot } from '../clients/clients.queries.ts';
import { currentClient } from '../clients/current-client.ts';
import type { Transaction } from 'kysely';
import type { Database } from '../../db/database.ts';
import { command, unchanged, type ChangeContext, type Unchanged } from '../events/write-path.ts';
import type { EventAction } from '../../../shared/schemas/events.ts';
import {
  finishReminders,
  insertReminders,
  lookAtOnNextRun,
  writeClientPause,
  writePlan,
  type NewReminder,
} from './reminders.repository.ts';

const dayMs = 86_400_000;
/** A reminder's link lasts as long as the longest one the owner can make. */
const reminderLinkDays = Math.max(...clientLinkExpiryDays);

export const saveReminderPlan = command(
  async ({ trx, record, now }, bookId, plan: ReminderPlan): Promise<void> => {
    // The event first: it locks the owner's log before the plan's row, as every change does
    // before the sender's next run is brought forward (remindersAfterChange).
    await record({
      clientId: null,
      action: 'settings_changed',
      version: 0,
      before: null,
      after: null,
    });
    await writePlan(trx, bookId, plan, now);
  },
);

export const setClientReminders = command(
  async ({ trx, record, now }, bookId, clientId: string, enabled: boolean): Promise<void> => {
    const client = await currentClient(trx, bookId, clientId);
    await writeClientPause(trx, bookId, clientId, !enabled, now);
    const snapshot = toSnapshot(client);
    await record({
      clientId,
      action: 'reminders_changed',
      version: client.version,
      before: snapshot,
      after: snapshot,
    });
  },
);

/** Changes after which no reminder can fall due sooner than the sender last worked out. */
const neverSooner = new Set<EventAction>([
  'reminder_sent',
  'reminder_failed',
  'statement_sent',
  'link_created',
  'link_revoked',
  'link_opened',
  'language_set',
]);

/**
 * Every change of an owner's data, in its transaction (write-path.ts): one that may bring a step
 * sooner (a charge, a void, a payment taken back, a client's address or switch, the plan...)
 * has the sender read the owner's charges at its next run, which works out the next time anew.
 */
export async function remindersAfterChange(
  trx: Transaction<Database>,
  bookId: string,
  actions: ReadonlySet<EventAction>,
): Promise<void> {
  if ([...actions].every((action) => neverSooner.has(action))) return;
  await lookAtOnNextRun(trx, bookId);
}

/**
 * One step of a restore from an export file (transfer/restore-plan.ts), in its transaction: the
 * plan comes back switched off, since the file holds no record of the reminders already sent,
 * and the clients whose reminders were off stay off. The restore records the events.
 */
export async function restoreReminderSettings(
  { trx, now }: ChangeContext,
  bookId: string,
  restored: { plan: ReminderPlan | undefined; pausedClientIds: readonly string[] },
): Promise<void> {
  if (restored.plan) await writePlan(trx, bookId, { ...restored.plan, enabled: false }, now);
  for (const clientId of restored.pausedClientIds)
    await writeClientPause(trx, bookId, clientId, true, now);
}

/** What the owner's history gains of a send: the e-mail went out, or it was given up. */
export type SendOutcome =
  /** `linkSecretHash`: the client's new link, which the e-mail carries, made as it is recorded. */
  | { kind: 'sent'; detail: ReminderDetail; linkSecretHash: string | null }
  | { kind: 'failed'; error: string; attempts: number; detail: ReminderDetail };

/**
 * Settles an e-mail's reminders as sent or given up, only while this instance still holds them
 * (else whoever took them over settles them), and says so in the client's history.
 */
export const finishSend = command(
  async (
    { trx, record, now }: ChangeContext,
    bookId: string,
    finish: { clientId: string; ids: number[]; instanceId: string; outcome: SendOutcome },
  ): Promise<number | Unchanged<number>> => {
    const { outcome } = finish;
    const fields =
      outcome.kind === 'sent'
        ? { status: 'sent' as const, sent_to: outcome.detail.sentTo, last_error: null }
        : { status: 'failed' as const, attempts: outcome.attempts, last_error: outcome.error };
    const settled = await finishReminders(trx, finish.ids, finish.instanceId, fields, now);
    if (settled === 0) return unchanged(0);
    if (outcome.kind === 'sent' && outcome.linkSecretHash !== null)
      await replaceClientLink(
        trx,
        bookId,
        finish.clientId,
        outcome.linkSecretHash,
        now + reminderLinkDays * dayMs,
        now,
        reminderMaker,
      );
    const client = await findClient(trx, bookId, finish.clientId);
    const snapshot = client ? { ...toSnapshot(client), email: outcome.detail.sentTo } : null;
    await record({
      clientId: finish.clientId,
      action: outcome.kind === 'sent' ? 'reminder_sent' : 'reminder_failed',
      version: client?.version ?? 0,
      before: snapshot,
      after: snapshot,
      reminder: outcome.detail,
    });
    return settled;
  },
);

/** The owner sent it themselves (no mail server): recorded as sent, once. */
export const markSentByHand = command(
  async (
    { trx, record, now }: ChangeContext,
    bookId: string,
    mark: { clientId: string; send: NewReminder[]; skip: NewReminder[]; detail: ReminderDetail },
  ): Promise<number | Unchanged<number>> => {
    const client = await currentClient(trx, bookId, mark.clientId);
    await insertReminders(
      trx,
      bookId,
      mark.skip,
      { status: 'skipped', claimed_by: null, lease_until: null, sent_to: null },
      now,
    );
    const inserted = await insertReminders(
      trx,
      bookId,
      mark.send,
      { status: 'sent', claimed_by: null, lease_until: null, sent_to: mark.detail.sentTo },
      now,
    );
    if (inserted.length === 0) return unchanged(0);
    const snapshot = toSnapshot(client);
    await record({
      clientId: mark.clientId,
      action: 'reminder_sent',
      version: client.version,
      before: snapshot,
      after: snapshot,
      reminder: {
        ...mark.detail,
        charges: mark.detail.charges.filter((charge) =>
          inserted.some((row) => row.entryId === charge.entryId && row.step === charge.step),
        ),
      },
    });
    return inserted.length;
  },
);
