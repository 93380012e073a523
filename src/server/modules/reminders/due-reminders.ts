import type { Kysely } from 'kysely';
import type { Locale } from '../../../shared/locales.ts';
import type { Client } from '../../../shared/schemas/clients.ts';
import type { ReminderPlan } from '../../../shared/schemas/reminders.ts';
import type { Database } from '../../db/database.ts';
import { clientLanguages, clientsByIds } from '../clients/clients.queries.ts';
import { dueDay } from '../ledger/ageing.ts';
import { openCharges } from '../ledger/ledger.queries.ts';
import { plainAddress } from './reminder-mail.ts';
import { pausedClientIds, recordedSteps } from './reminders.queries.ts';
import { dueSteps, nextStepDay, stepKey, upcomingSteps, type ScheduledStep } from './schedule.ts';

export interface ChargeDue {
  entryId: number;
  reference: string;
  dueOn: string;
  remaining: number;
}

export interface ClientReminders {
  client: Client;
  /** The client's own language; null: the owner's. */
  language: Locale | null;
  /** The address the e-mail goes to: the client's, when a header can carry it as it is. */
  email: string;
  charges: ChargeDue[];
  /** All the client owes. */
  amountDue: bigint;
  recorded: Set<string>;
}

/**
 * Each client who may get reminders, with what they owe per charge as the ledger keeps it
 * (`open_amount`): clients paused, without a usable address, or owing nothing are left out.
 */
export async function remindableClients(
  db: Kysely<Database>,
  bookId: string,
  onlyClientId?: string,
): Promise<ClientReminders[]> {
  const open = await openCharges(db, bookId, onlyClientId);
  if (open.length === 0) return [];
  const clientIds = [...new Set(open.map((charge) => charge.clientId))];
  const [clients, languages, paused, recorded] = await Promise.all([
    clientsByIds(db, bookId, clientIds),
    clientLanguages(db, bookId, clientIds),
    pausedClientIds(db, bookId),
    recordedSteps(
      db,
      bookId,
      open.map((charge) => charge.id),
    ),
  ]);
  const result: ClientReminders[] = [];
  for (const client of clients) {
    const email = plainAddress(client.email);
    if (paused.has(client.id) || !email) continue;
    const charges = open
      .filter((charge) => charge.clientId === client.id && charge.currency === client.currency)
      .map((charge) => ({
        entryId: charge.id,
        // An entry from before references were kept has its note as the nearest thing.
        reference: charge.reference || charge.note,
        dueOn: dueDay(charge),
        remaining: charge.remaining,
      }));
    if (charges.length === 0) continue;
    result.push({
      client,
      language: languages.get(client.id) ?? null,
      email,
      charges,
      amountDue: charges.reduce((sum, charge) => sum + BigInt(charge.remaining), 0n),
      recorded: new Set(
        recorded
          .filter((step) => step.clientId === client.id)
          .map((step) => stepKey(step.entryId, step.step)),
      ),
    });
  }
  return result;
}

export interface ClientDue extends ClientReminders {
  send: ScheduledStep[];
  skip: ScheduledStep[];
}

export async function dueToday(
  db: Kysely<Database>,
  bookId: string,
  plan: ReminderPlan,
  today: string,
  onlyClientId?: string,
): Promise<ClientDue[]> {
  if (!plan.enabled) return [];
  const clients = await remindableClients(db, bookId, onlyClientId);
  return clients.flatMap((entry) => {
    const { send, skip } = dueSteps(entry.charges, plan, today, entry.recorded);
    return send.length > 0 ? [{ ...entry, send, skip }] : [];
  });
}

/**
 * What the sender sends today, and the next day after today on which a step falls due if nothing
 * is paid meanwhile, counting today's steps as recorded (the sender claims them before it keeps
 * that day): null when no charge has a step left.
 */
export async function sendingPlan(
  db: Kysely<Database>,
  bookId: string,
  plan: ReminderPlan,
  today: string,
): Promise<{ due: ClientDue[]; nextDay: string | null }> {
  const due: ClientDue[] = [];
  let nextDay: string | null = null;
  for (const entry of await remindableClients(db, bookId)) {
    const { send, skip } = dueSteps(entry.charges, plan, today, entry.recorded);
    if (send.length > 0) due.push({ ...entry, send, skip });
    const recorded = new Set(entry.recorded);
    for (const step of [...send, ...skip]) recorded.add(stepKey(step.entryId, step.step));
    const next = nextStepDay(entry.charges, plan, today, recorded);
    if (next !== null && (nextDay === null || next < nextDay)) nextDay = next;
  }
  return { due, nextDay };
}

export async function upcoming(
  db: Kysely<Database>,
  bookId: string,
  plan: ReminderPlan,
  today: string,
  days: number,
): Promise<{ client: Client; step: ScheduledStep; charge: ChargeDue }[]> {
  if (!plan.enabled) return [];
  const clients = await remindableClients(db, bookId);
  return clients
    .flatMap((entry) =>
      upcomingSteps(entry.charges, plan, today, entry.recorded, days).map((step) => ({
        client: entry.client,
        step,
        charge: entry.charges.find((charge) => charge.entryId === step.entryId)!,
      })),
    )
    .sort((a, b) => (a.step.on < b.step.on ? -1 : a.step.on > b.step.on ? 1 : 0));
}
