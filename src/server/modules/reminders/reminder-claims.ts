import type { Kysely } from 'kysely';
import type { Database } from '../../db/database.ts';
import { reminderMessageId } from './reminder-mail.ts';
import {
  finishReminders,
  insertReminders,
  retakeMessage,
  setMessageId,
  type NewReminder,
} from './reminders.repository.ts';

// The sender's own bookkeeping (which instance holds which reminder, until when, how often it was
// tried) is not the owner's data and shows in no history or live page: like sessions and login
// counts, it is written in short transactions of its own, outside the write path. What the
// owner's history gains (a reminder sent, given up, or marked sent by hand) goes through the
// write path with its event (reminders.commands.ts). Decision 029.

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
export async function claimReminders(
  db: Kysely<Database>,
  bookId: string,
  claim: {
    instanceId: string;
    /** On the sender's clock, which a test may move. */
    now: number;
    leaseUntil: number;
    domain: string;
    send: NewReminder[];
    skip: NewReminder[];
  },
): Promise<ClaimedMessage[]> {
  return db.transaction().execute(async (trx) => {
    await insertReminders(
      trx,
      bookId,
      claim.skip,
      { status: 'skipped', claimed_by: null, lease_until: null, sent_to: null },
      claim.now,
    );
    const inserted = await insertReminders(
      trx,
      bookId,
      claim.send,
      {
        status: 'sending',
        claimed_by: claim.instanceId,
        lease_until: claim.leaseUntil,
        sent_to: null,
      },
      claim.now,
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
  });
}

/** An e-mail whose sender's lease ran out, or whose retry has come: ours if still so. */
export async function retakeReminders(
  db: Kysely<Database>,
  bookId: string,
  retake: { messageId: string; instanceId: string; at: number; leaseUntil: number },
): Promise<ClaimedMessage | null> {
  const rows = await db
    .transaction()
    .execute((trx) =>
      retakeMessage(trx, bookId, retake.messageId, retake.instanceId, retake.leaseUntil, retake.at),
    );
  const first = rows[0];
  if (!first) return null;
  return {
    clientId: first.clientId,
    messageId: retake.messageId,
    reminders: rows.map(({ id, entryId, step, attempts }) => ({ id, entryId, step, attempts })),
  };
}

/** A send to try again later, or one no longer wanted (paid, paused): nothing for the history. */
export async function settleUnsent(
  db: Kysely<Database>,
  settle: {
    ids: number[];
    instanceId: string;
    now: number;
    outcome:
      | { kind: 'retry'; error: string; attempts: number; nextAttemptAt: number }
      | { kind: 'cancelled' };
  },
): Promise<void> {
  const { outcome } = settle;
  const fields =
    outcome.kind === 'retry'
      ? {
          status: 'retrying' as const,
          attempts: outcome.attempts,
          next_attempt_at: outcome.nextAttemptAt,
          last_error: outcome.error,
        }
      : { status: 'cancelled' as const };
  await db
    .transaction()
    .execute((trx) => finishReminders(trx, settle.ids, settle.instanceId, fields, settle.now));
}
