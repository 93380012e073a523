import type { ReminderDetail, ReminderPlan } from '../../../shared/schemas/reminders.ts';
import { findClient, toSnapshot } from '../clients/clients.queries.ts';
import { currentClient } from '../clients/current-client.ts';
import { command, unchanged, type ChangeContext, type Unchanged } from '../events/write-path.ts';
import { reminderMessageId } from './reminder-mail.ts';
import {
  finishReminders,
  insertReminders,
  retakeMessage,
  setMessageId,
  writeClientPause,
  writePlan,
  type NewReminder,
} from './reminders.repository.ts';

export const saveReminderPlan = command(
  'reminders.savePlan',
  async ({ trx, record, now }, ownerId, plan: ReminderPlan): Promise<void> => {
    await writePlan(trx, ownerId, plan, now);
    await record({
      clientId: null,
      action: 'settings_changed',
      version: 0,
      before: null,
      after: null,
    });
  },
);

export const setClientReminders = command(
  'reminders.setClient',
  async ({ trx, record, now }, ownerId, clientId: string, enabled: boolean): Promise<void> => {
    const client = await currentClient(trx, ownerId, clientId);
    await writeClientPause(trx, ownerId, clientId, !enabled, now);
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

export interface ClaimedMessage {
  clientId: string;
  messageId: string;
  reminders: { id: number; entryId: number; step: string; attempts: number }[];
}

/**
 * Claims the due steps for this instance, in one transaction, before anything is sent: a step
 * another instance holds already is not inserted (the unique index), so it is not ours to send.
 * One e-mail per client, its Message-ID made of the ids of the reminders it carries.
 */
export const claimReminders = command(
  'reminders.claim',
  async (
    { trx, now }: ChangeContext,
    ownerId: string,
    claim: {
      instanceId: string;
      /** On the sender's clock, which a test may move. */
      leaseUntil: number;
      domain: string;
      send: NewReminder[];
      skip: NewReminder[];
    },
  ): Promise<ClaimedMessage[]> => {
    await insertReminders(
      trx,
      ownerId,
      claim.skip,
      { status: 'skipped', claimed_by: null, lease_until: null, sent_to: null },
      now,
    );
    const inserted = await insertReminders(
      trx,
      ownerId,
      claim.send,
      {
        status: 'sending',
        claimed_by: claim.instanceId,
        lease_until: claim.leaseUntil,
        sent_to: null,
      },
      now,
    );
    const byClient = new Map<string, ClaimedMessage['reminders']>();
    for (const row of inserted) {
      const list = byClient.get(row.clientId) ?? [];
      list.push({ id: row.id, entryId: row.entryId, step: row.step, attempts: 0 });
      byClient.set(row.clientId, list);
    }
    const messages: ClaimedMessage[] = [];
    for (const [clientId, reminders] of byClient) {
      const ids = reminders.map((reminder) => reminder.id);
      const messageId = reminderMessageId(ids, claim.domain);
      await setMessageId(trx, ids, messageId);
      messages.push({ clientId, messageId, reminders });
    }
    return messages;
  },
  { eventless: true },
);

/** An e-mail whose sender's lease ran out, or whose retry has come: ours if still so. */
export const retakeReminders = command(
  'reminders.retake',
  async (
    { trx }: ChangeContext,
    ownerId: string,
    retake: { messageId: string; instanceId: string; at: number; leaseUntil: number },
  ): Promise<ClaimedMessage | null> => {
    const rows = await retakeMessage(
      trx,
      ownerId,
      retake.messageId,
      retake.instanceId,
      retake.leaseUntil,
      retake.at,
    );
    const first = rows[0];
    if (!first) return null;
    return {
      clientId: first.clientId,
      messageId: retake.messageId,
      reminders: rows.map(({ id, entryId, step, attempts }) => ({ id, entryId, step, attempts })),
    };
  },
  { eventless: true },
);

export type SendOutcome =
  | { kind: 'sent'; detail: ReminderDetail }
  | { kind: 'retry'; error: string; attempts: number; nextAttemptAt: number }
  | { kind: 'failed'; error: string; attempts: number; detail: ReminderDetail }
  | { kind: 'cancelled' };

/**
 * Settles an e-mail's reminders, only while this instance still holds them (else whoever took
 * them over settles them). What was sent, or given up, goes into the client's history.
 */
export const finishSend = command(
  'reminders.finish',
  async (
    { trx, record, now }: ChangeContext,
    ownerId: string,
    finish: { clientId: string; ids: number[]; instanceId: string; outcome: SendOutcome },
  ): Promise<number> => {
    const { outcome } = finish;
    const fields =
      outcome.kind === 'sent'
        ? { status: 'sent' as const, sent_to: outcome.detail.sentTo, last_error: null }
        : outcome.kind === 'retry'
          ? {
              status: 'retrying' as const,
              attempts: outcome.attempts,
              next_attempt_at: outcome.nextAttemptAt,
              last_error: outcome.error,
            }
          : outcome.kind === 'failed'
            ? { status: 'failed' as const, attempts: outcome.attempts, last_error: outcome.error }
            : { status: 'cancelled' as const };
    const settled = await finishReminders(trx, finish.ids, finish.instanceId, fields, now);
    if (settled > 0 && (outcome.kind === 'sent' || outcome.kind === 'failed')) {
      const client = await findClient(trx, ownerId, finish.clientId);
      const snapshot = client ? { ...toSnapshot(client), email: outcome.detail.sentTo } : null;
      await record({
        clientId: finish.clientId,
        action: outcome.kind === 'sent' ? 'reminder_sent' : 'reminder_failed',
        version: client?.version ?? 0,
        before: snapshot,
        after: snapshot,
        reminder: outcome.detail,
      });
    }
    return settled;
  },
  { eventless: true },
);

/** The owner sent it themselves (no mail server): recorded as sent, once. */
export const markSentByHand = command(
  'reminders.markSent',
  async (
    { trx, record, now }: ChangeContext,
    ownerId: string,
    mark: { clientId: string; send: NewReminder[]; skip: NewReminder[]; detail: ReminderDetail },
  ): Promise<number | Unchanged<number>> => {
    const client = await currentClient(trx, ownerId, mark.clientId);
    await insertReminders(
      trx,
      ownerId,
      mark.skip,
      { status: 'skipped', claimed_by: null, lease_until: null, sent_to: null },
      now,
    );
    const inserted = await insertReminders(
      trx,
      ownerId,
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
