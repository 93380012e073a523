import type { BusinessDetails, ClientSnapshot } from '../../../shared/schemas/clients.ts';
import type {
  ClosingDetail,
  EntryDetail,
  EventAction,
  MemberDetail,
} from '../../../shared/schemas/events.ts';
import type { Locale } from '../../../shared/locales.ts';
import type { ReminderDetail, ReminderPlan } from '../../../shared/schemas/reminders.ts';
import type { RestoreSummary } from '../../../shared/schemas/restore.ts';
import type { Business, ExchangeRate, Preferences } from '../../../shared/schemas/settings.ts';
import type { Db } from '../../db/database.ts';
import { AppError } from '../../errors.ts';
import { newId } from '../../ids.ts';
import { hasClientHistory } from '../events/events.queries.ts';
import { emailKey } from '../auth/accounts.queries.ts';
import { listMembers } from '../books/books.queries.ts';
import type { ChangeContext, NewEvent } from '../events/write-path.ts';
import { writeOwnerSettings } from '../settings/settings.commands.ts';
import { addRestoredClients, setRestoredClientLanguages } from '../clients/clients.commands.ts';
import { restoreReminderSettings } from '../reminders/reminders.commands.ts';
import { countClients, takenClientIds, toSnapshot } from '../clients/clients.queries.ts';
import { allocate, type Allocation, type PaymentTarget } from '../ledger/ageing.ts';
import {
  addRestoredEntry,
  closedPeriodOf,
  linkRestoredCorrections,
  addRestoredFigures,
  addRestoredTargets,
  type NewEntry,
} from '../ledger/ledger.commands.ts';
import { addRestoredBank } from '../bank/bank.commands.ts';

export interface RestorePlan {
  version: number;
  exportedAt: string | null;
  exportedFrom: string | null;
  openingsFromBalances: number;
  clients: (ClientSnapshot &
    BusinessDetails & {
      id: string;
      version: number;
      createdAt: number;
      updatedAt: number;
      /** Null: the owner's. */
      language: Locale | null;
      reminders: boolean;
    })[];
  entries: (Omit<NewEntry, 'bookId' | 'createdBy'> & { fileId: number; createdAt: number })[];
  /** The charges payments name, by the file's entry ids (version 7 on; empty before). */
  targets: PaymentTarget[];
  history: {
    clientId: string | null;
    action: EventAction;
    at: number;
    version: number;
    before: ClientSnapshot | null;
    after: ClientSnapshot | null;
    entry: EntryDetail | null;
    reminder: ReminderDetail | null;
    member: Omit<MemberDetail, 'userId'> | null;
    closing: ClosingDetail | null;
    /** Who made it, by e-mail (version 8 on). */
    by: string | null;
  }[];
  settings: {
    preferences: Preferences;
    rates: ExchangeRate[];
    business?: Business | undefined;
    lockDate: string | null;
  };
  /** As the file has it; restored switched off. */
  reminderPlan: ReminderPlan | null;
  /** The bank imports, lines, learned payers and CSV layouts (version 5 on; empty before). */
  bank: Parameters<typeof addRestoredBank>[2];
}

// Only into an empty account, so that restoring twice cannot double anything.
export const notEmpty = () =>
  new AppError(
    409,
    'conflict',
    'This account already has clients or a history, so restoring here could double them. Restore into a new, empty account (or a fresh instance). Nothing was changed.',
  );

type Reader = Db['kysely'];

async function checkTarget(db: Reader, bookId: string, plan: RestorePlan) {
  const [clients, history] = await Promise.all([
    countClients(db, { bookId }),
    hasClientHistory(db, bookId),
  ]);
  if (clients > 0 || history) throw notEmpty();
  // A book closed up to a day takes no entry dated on or before it (issue 59): named by the
  // file's entry ids, so the owner can find them.
  const found = await closedPeriodOf(db, bookId, plan.entries, (entry) => entry.date);
  if (found && found.closed.length > 0) {
    throw new AppError(
      409,
      'period_closed',
      'The books are closed up to {lockDate}; these entries of the file are dated on or before it: {entries}',
      {
        values: {
          lockDate: found.lockDate,
          entries: found.closed
            .slice(0, 20)
            .map((entry) => `${entry.fileId} (${entry.date})`)
            .join(', '),
        },
      },
    );
  }
  return takenClientIds(
    db,
    plan.clients.map((client) => client.id),
  );
}

function ageingOf(plan: RestorePlan): Map<string, Allocation> {
  const currencyOf = new Map(plan.clients.map((client) => [client.id, client.currency]));
  const linesOf = new Map<string, Parameters<typeof allocate>[0][number][]>();
  for (const entry of plan.entries) {
    if (currencyOf.get(entry.clientId) !== entry.currency) continue;
    const lines = linesOf.get(entry.clientId) ?? [];
    lines.push({ ...entry, id: entry.fileId });
    linesOf.set(entry.clientId, lines);
  }
  const clientOf = new Map(plan.entries.map((entry) => [entry.fileId, entry.clientId]));
  const targetsOf = new Map<string, PaymentTarget[]>();
  for (const target of plan.targets) {
    const clientId = clientOf.get(target.paymentId) ?? '';
    targetsOf.set(clientId, [...(targetsOf.get(clientId) ?? []), target]);
  }
  return new Map([...linesOf].map(([id, lines]) => [id, allocate(lines, targetsOf.get(id) ?? [])]));
}

function summary(plan: RestorePlan, renumbered: number, restored: boolean): RestoreSummary {
  return {
    version: plan.version,
    exportedAt: plan.exportedAt,
    exportedFrom: plan.exportedFrom,
    clients: plan.clients.length,
    entries: plan.entries.length,
    openingsFromBalances: plan.openingsFromBalances,
    history: plan.history.length,
    rates: plan.settings.rates.length,
    renumbered,
    remindersTurnedOff: plan.reminderPlan?.enabled ?? false,
    restored,
  };
}

export async function previewRestore(
  db: Reader,
  bookId: string,
  plan: RestorePlan,
): Promise<RestoreSummary> {
  const taken = await checkTarget(db, bookId, plan);
  return summary(plan, taken.size, false);
}

/** Each client gets a `restored` event after its history, so caches and live streams see it. */
export async function restoreInto(
  context: ChangeContext,
  bookId: string,
  plan: RestorePlan,
): Promise<RestoreSummary> {
  const { trx, record } = context;
  const taken = await checkTarget(trx, bookId, plan);
  const clientIds = new Map(
    plan.clients.map((client) => [client.id, taken.has(client.id) ? newId() : client.id]),
  );
  const clientId = (id: string) => clientIds.get(id) ?? id;
  const ageing = ageingOf(plan);
  await addRestoredClients(
    trx,
    bookId,
    plan.clients.map((client) => ({
      ...client,
      id: clientId(client.id),
      oldestDueOn: ageing.get(client.id)?.oldestDue ?? null,
    })),
  );

  const entryIds = new Map<number, number>();
  for (const entry of plan.entries) {
    const id = await addRestoredEntry(trx, {
      ...entry,
      bookId,
      clientId: clientId(entry.clientId),
      voidOf: entry.voidOf === null ? null : (entryIds.get(entry.voidOf) ?? null),
      corrects: null,
      // The file names no author per entry: the person restoring brought them in.
      createdBy: context.actor?.userId ?? null,
      openAmount: ageing.get(entry.clientId)?.open.get(entry.fileId) ?? 0,
    });
    entryIds.set(entry.fileId, id);
  }
  await linkRestoredCorrections(
    trx,
    bookId,
    plan.entries.flatMap((entry) => {
      const corrects = entry.corrects ? entryIds.get(entry.corrects) : undefined;
      const id = entryIds.get(entry.fileId);
      return corrects === undefined || id === undefined ? [] : [{ id, corrects }];
    }),
  );
  const clientOfEntry = new Map(plan.entries.map((entry) => [entry.fileId, entry.clientId]));
  await addRestoredTargets(
    trx,
    bookId,
    plan.targets.map((target) => ({
      clientId: clientId(clientOfEntry.get(target.paymentId) ?? ''),
      paymentId: entryIds.get(target.paymentId) ?? 0,
      chargeId: entryIds.get(target.chargeId) ?? 0,
      amount: target.amount,
    })),
  );
  // An import's id is the instance's own, like an entry's; a line's and a payer's are the owner's.
  const batchIds = new Map(plan.bank.batches.map((batch) => [batch.id, newId()]));
  await addRestoredBank(trx, bookId, {
    batches: plan.bank.batches.map((batch) => ({
      ...batch,
      id: batchIds.get(batch.id) ?? batch.id,
    })),
    lines: plan.bank.lines.map((line) => ({
      ...line,
      batchId: batchIds.get(line.batchId) ?? line.batchId,
    })),
    rules: plan.bank.rules.map((rule) => ({
      ...rule,
      clientId: rule.clientId === null ? null : clientId(rule.clientId),
      batchId: rule.batchId === null ? null : (batchIds.get(rule.batchId) ?? null),
    })),
    layouts: plan.bank.layouts,
  });
  await setRestoredClientLanguages(
    trx,
    bookId,
    plan.clients.flatMap((client) =>
      client.language === null ? [] : [{ id: clientId(client.id), language: client.language }],
    ),
  );
  await addRestoredFigures(
    trx,
    bookId,
    plan.entries.map((entry) => ({
      ...entry,
      openAmount: ageing.get(entry.clientId)?.open.get(entry.fileId) ?? 0,
    })),
  );
  const entryId = (id: number) => entryIds.get(id) ?? 0;

  // A change is credited to whoever made it where they keep this book too; else to nobody.
  const members = new Map(
    (await listMembers(trx, bookId)).map((member) => [emailKey(member.email), member.userId]),
  );
  const history: NewEvent[] = plan.history.map((event) => ({
    actorId: event.by === null ? null : (members.get(emailKey(event.by)) ?? null),
    ...(event.member && { member: event.member }),
    ...(event.closing && { closing: event.closing }),
    clientId: event.clientId === null ? null : clientId(event.clientId),
    action: event.action,
    version: event.version,
    before: event.before,
    after: event.after,
    entry: event.entry && {
      ...event.entry,
      entryId: entryId(event.entry.entryId),
      voidOf: event.entry.voidOf === null ? null : entryId(event.entry.voidOf),
    },
    ...(event.reminder && {
      reminder: {
        ...event.reminder,
        charges: event.reminder.charges.map((charge) => ({
          ...charge,
          entryId: entryId(charge.entryId),
        })),
      },
    }),
    at: event.at,
  }));
  await record(history);
  // After the first event locked the owner's log, as every change takes the plan's row after it.
  await restoreReminderSettings(context, bookId, {
    plan: plan.reminderPlan ?? undefined,
    pausedClientIds: plan.clients
      .filter((client) => !client.reminders)
      .map((client) => clientId(client.id)),
  });
  // Recording took the owner's turn: a restore committed meanwhile shows now; this one gives way.
  if ((await countClients(trx, { bookId })) !== plan.clients.length) throw notEmpty();
  await record(
    plan.clients.map((client) => ({
      clientId: clientId(client.id),
      action: 'restored' as const,
      version: client.version,
      before: null,
      after: toSnapshot(client),
    })),
  );
  await writeOwnerSettings(context, bookId, plan.settings);
  return summary(plan, taken.size, true);
}
