import type { ClientSnapshot } from '../../../shared/schemas/clients.ts';
import type { EntryDetail, EventAction } from '../../../shared/schemas/events.ts';
import type { RestoreSummary } from '../../../shared/schemas/restore.ts';
import type { Business, ExchangeRate, Preferences } from '../../../shared/schemas/settings.ts';
import type { Db } from '../../db/database.ts';
import { AppError } from '../../errors.ts';
import { newId } from '../../ids.ts';
import { hasClientHistory } from '../events/events.queries.ts';
import type { ChangeContext, NewEvent } from '../events/write-path.ts';
import { writeOwnerSettings } from '../settings/settings.commands.ts';
import { addRestoredClients } from '../clients/clients.commands.ts';
import { countClients, takenClientIds, toSnapshot } from '../clients/clients.queries.ts';
import { allocate, type Allocation } from '../ledger/ageing.ts';
import { addRestoredEntry, type NewEntry } from '../ledger/ledger.commands.ts';

/** An owner's export file, checked and read (transfer/restore-file.ts): what a restore writes. */
export interface RestorePlan {
  version: number;
  exportedAt: string | null;
  exportedFrom: string | null;
  /** How many of `entries` a version-1 file's balances became. */
  openingsFromBalances: number;
  clients: (ClientSnapshot & {
    id: string;
    version: number;
    createdAt: number;
    updatedAt: number;
  })[];
  /** In the file's order, but each void after the entry it names (`voidOf` is a file id). */
  entries: (Omit<NewEntry, 'ownerId' | 'createdBy'> & { fileId: number; createdAt: number })[];
  history: {
    clientId: string | null;
    action: EventAction;
    at: number;
    version: number;
    before: ClientSnapshot | null;
    after: ClientSnapshot | null;
    entry: EntryDetail | null;
  }[];
  settings: { preferences: Preferences; rates: ExchangeRate[]; business?: Business | undefined };
}

/**
 * Restoring twice must not double anything, so a restore goes only into an account with no
 * clients and no history (settings changes aside): a new account, or one on a fresh instance.
 */
export const notEmpty = () =>
  new AppError(
    409,
    'conflict',
    'This account already has clients or a history, so restoring here could double them. Restore into a new, empty account (or a fresh instance). Nothing was changed.',
  );

type Reader = Db['kysely'];

async function checkTarget(db: Reader, ownerId: string, plan: RestorePlan) {
  const [clients, history] = await Promise.all([
    countClients(db, { ownerId }),
    hasClientHistory(db, ownerId),
  ]);
  if (clients > 0 || history) throw notEmpty();
  // The account is empty, so a taken id is another account's: that client gets a new one.
  return takenClientIds(
    db,
    plan.clients.map((client) => client.id),
  );
}

/**
 * What of each restored client's ledger is unpaid, worked out from the file (by file ids) as the
 * ledger commands would: entries left in an earlier currency are owed by nobody.
 */
function ageingOf(plan: RestorePlan): Map<string, Allocation> {
  const currencyOf = new Map(plan.clients.map((client) => [client.id, client.currency]));
  const linesOf = new Map<string, Parameters<typeof allocate>[0][number][]>();
  for (const entry of plan.entries) {
    if (currencyOf.get(entry.clientId) !== entry.currency) continue;
    const lines = linesOf.get(entry.clientId) ?? [];
    lines.push({ ...entry, id: entry.fileId });
    linesOf.set(entry.clientId, lines);
  }
  return new Map([...linesOf].map(([id, lines]) => [id, allocate(lines)]));
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
    restored,
  };
}

/** What a restore of this file into the owner's account would bring back; changes nothing. */
export async function previewRestore(
  db: Reader,
  ownerId: string,
  plan: RestorePlan,
): Promise<RestoreSummary> {
  const taken = await checkTarget(db, ownerId, plan);
  return summary(plan, taken.size, false);
}

/**
 * Brings an export file back into an empty account, in the change's transaction (all or
 * nothing): clients (with their ids where free), their ledgers, the history with its original
 * times, and the settings. After the history, each client gets a `restored` event, so the list's
 * cache and live streams see them. The restore's command (transfer/restore.commands.ts) runs it.
 */
export async function restoreInto(
  context: ChangeContext,
  ownerId: string,
  plan: RestorePlan,
): Promise<RestoreSummary> {
  const { trx, record } = context;
  const taken = await checkTarget(trx, ownerId, plan);
  const clientIds = new Map(
    plan.clients.map((client) => [client.id, taken.has(client.id) ? newId() : client.id]),
  );
  const clientId = (id: string) => clientIds.get(id) ?? id;
  const ageing = ageingOf(plan);
  await addRestoredClients(
    trx,
    ownerId,
    plan.clients.map((client) => ({
      ...client,
      id: clientId(client.id),
      oldestDueOn: ageing.get(client.id)?.oldestDue ?? null,
    })),
  );

  // Entry ids are the instance's own: each gets a new one, and voids follow their entry's.
  const entryIds = new Map<number, number>();
  for (const entry of plan.entries) {
    const id = await addRestoredEntry(trx, {
      ...entry,
      ownerId,
      clientId: clientId(entry.clientId),
      voidOf: entry.voidOf === null ? null : (entryIds.get(entry.voidOf) ?? null),
      createdBy: ownerId,
      openAmount: ageing.get(entry.clientId)?.open.get(entry.fileId) ?? 0,
    });
    entryIds.set(entry.fileId, id);
  }
  // A deleted client's entries are not in the file, though its history names them: 0, no id.
  const entryId = (id: number) => entryIds.get(id) ?? 0;

  const history: NewEvent[] = plan.history.map((event) => ({
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
    at: event.at,
  }));
  await record(history);
  // Recording took the owner's turn: a restore of the same account that committed while this
  // one was writing shows now, and this one gives way rather than doubling the clients.
  if ((await countClients(trx, { ownerId })) !== plan.clients.length) throw notEmpty();
  await record(
    plan.clients.map((client) => ({
      clientId: clientId(client.id),
      action: 'restored' as const,
      version: client.version,
      before: null,
      after: toSnapshot(client),
    })),
  );
  await writeOwnerSettings(context, ownerId, plan.settings);
  return summary(plan, taken.size, true);
}
