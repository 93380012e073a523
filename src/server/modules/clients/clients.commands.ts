import { utcDay } from '../../../shared/dates.ts';
import { currencyLabel } from '../../../shared/money.ts';
import {
  businessFields,
  noBusiness,
  type BusinessDetails,
  type Client,
  type ClientInput,
  type ClientUpdate,
} from '../../../shared/schemas/clients.ts';
import type { EntryDetail } from '../../../shared/schemas/events.ts';
import { currencyCanChange } from '../../../shared/schemas/ledger.ts';
import type { Locale } from '../../../shared/locales.ts';
import { fieldError } from '../../errors.ts';
import { newId } from '../../ids.ts';
import { clientBankLines, freeUnpaidLines } from '../bank/bank-lines.commands.ts';
import { command, type ChangeContext, type NewEvent } from '../events/write-path.ts';
import {
  addEntry,
  addOpenings,
  changeOpeningTerms,
  keepClientTotals,
  openingOf,
  publishStagedLedger,
  reallocate,
  removeClientFigures,
  settleChange,
  type ClientPart,
  checkOpenPeriod,
} from '../ledger/ledger.commands.ts';
import { firstEntryDates, ledgerShape, liveOpenings } from '../ledger/ledger.queries.ts';
import { readPreferences } from '../settings/settings.queries.ts';
import {
  deleteClient as deleteClientRow,
  deleteSomeClients,
  insertClient,
  insertClients,
  insertRestoredClients,
  moveClients,
  updateClientIfVersion,
  updateClientLanguage,
} from './clients.repository.ts';
import { clientNotFound, conflict, currentClient } from './current-client.ts';
import { toSnapshot, withNotes, type ClientValues } from './clients.queries.ts';

// Every change of a client's own record (added, edited, deleted, imported): each one a command
// on the one write path (rows and event in one transaction, live streams woken after the commit).
// Named commands (`command`) run in SQLite's writer thread; their arguments and values are plain
// data. A balance typed on the form becomes a ledger entry (ledger/ledger.commands.ts). Each
// command that writes a client's row moves the owner's kept sums with it (`keepClientTotals`).

const sumsPartOf = (client: Client): ClientPart => ({
  currency: client.currency,
  balance: client.balance,
  oldestDue: client.oldestDueDate,
});

/**
 * The business fields a request gives, over `base` for those it leaves out: '' on a new client,
 * what is stored on an edit (so a caller that does not know them does not clear them).
 */
function businessOf(
  given: Partial<Record<keyof BusinessDetails, string | undefined>>,
  base: BusinessDetails,
): BusinessDetails {
  const details = { ...noBusiness };
  for (const field of businessFields) details[field] = given[field] ?? base[field];
  return details;
}

/** A new client; a balance other than 0 is its opening balance. */
export const addClient = command(
  async ({ trx, record, now, actor }, bookId, input: ClientInput): Promise<Client> => {
    // With the preference on, the form has no balance and a hand-made request cannot add one.
    const { disableBalanceOnAdd } = await readPreferences(trx, bookId);
    const opening = disableBalanceOnAdd ? 0 : (input.balance ?? 0);
    const terms = openingOf(input, now);
    const client = await insertClient(trx, {
      ...input,
      ...businessOf(input, noBusiness),
      balance: opening,
      id: newId(),
      openingDueDay: terms.dueDay,
      bookId,
      now,
    });
    await keepClientTotals(trx, bookId, [], [sumsPartOf(client)]);
    const entry =
      opening === 0
        ? null
        : await addEntry(
            trx,
            bookId,
            client.id,
            {
              kind: 'opening',
              amount: opening,
              currency: client.currency,
              date: terms.date,
              dueDate: terms.dueDate,
              reference: terms.reference,
              // A new client's only entry: unpaid as far as it is owed (its row says the same).
              openAmount: Math.max(opening, 0),
            },
            now,
            actor?.userId ?? null,
          );
    await record({
      clientId: client.id,
      action: 'created',
      version: client.version,
      before: null,
      after: toSnapshot(client),
      entry,
    });
    return client;
  },
);

/**
 * The edit form, applied only to the version the user saw. A new balance is recorded as an
 * adjustment of the difference. A new currency is allowed only while the ledger holds nothing
 * but opening balances: the old opening is voided and the balance opens again in the new one.
 */
export const editClient = command(
  async (
    { trx, record, now, actor },
    bookId,
    id: string,
    update: ClientUpdate,
  ): Promise<Client> => {
    const { version, openingDate, openingDueDate, openingReference, ...values } = update;
    const current = await currentClient(trx, bookId, id);
    if (current.version !== version) throw conflict();
    // First, so that a change of currency opens the balance again on the new terms.
    const opening = await changeOpeningTerms(
      trx,
      bookId,
      current,
      { openingDate, openingDueDate, openingReference },
      now,
    );
    const { disableBalanceOnEdit } = await readPreferences(trx, bookId);
    const next: ClientValues = {
      ...values,
      ...businessOf(values, current),
      // With the preference on, the edit form has no balance: both stay as stored, since minor
      // units mean something only in their currency.
      balance: disableBalanceOnEdit ? current.balance : values.balance,
      currency: disableBalanceOnEdit ? current.currency : values.currency,
    };
    const today = utcDay(now);
    let entry: EntryDetail | null = null;
    if (next.currency !== current.currency) {
      if (!currencyCanChange(await ledgerShape(trx, bookId, id)))
        throw fieldError(
          'currency',
          'cannot change once payments, charges, credits or adjustments are recorded',
        );
      const reason = `Currency changed to ${currencyLabel[next.currency]}`;
      const openings = await liveOpenings(trx, bookId, id);
      for (const opening of openings) {
        await addEntry(
          trx,
          bookId,
          id,
          {
            kind: 'void',
            amount: -opening.amount,
            currency: opening.currency,
            date: today,
            note: reason,
            voidOf: opening.id,
          },
          now,
          actor?.userId ?? null,
        );
      }
      // The balance opens again as it was brought in: as of the same day, due when it was.
      const first = openings[0];
      if (next.balance !== 0)
        entry = await addEntry(
          trx,
          bookId,
          id,
          {
            kind: 'opening',
            amount: next.balance,
            currency: next.currency,
            date: first?.occurred_on ?? today,
            dueDate: first?.due_on ?? null,
            reference: first?.reference ?? '',
          },
          now,
          actor?.userId ?? null,
        );
    } else if (next.balance !== current.balance) {
      entry = await addEntry(
        trx,
        bookId,
        id,
        {
          kind: 'adjustment',
          amount: next.balance - current.balance,
          currency: next.currency,
          date: today,
          note: 'Balance set on the edit form',
        },
        now,
        actor?.userId ?? null,
      );
    }
    const saved = await updateClientIfVersion(trx, bookId, id, version, next, now);
    if (!saved) throw conflict();
    // Unchanged since `current` (the version says so) but for its oldest unpaid day, which only
    // the ledger's writers move and keep.
    await keepClientTotals(
      trx,
      bookId,
      [{ ...sumsPartOf(current), oldestDue: saved.oldestDueDate }],
      [sumsPartOf(saved)],
    );
    const updated =
      next.currency !== current.currency || opening !== null
        ? await reallocate(trx, bookId, saved)
        : entry === null
          ? saved
          : await settleChange(trx, bookId, saved, entry);
    await record({
      clientId: id,
      action: 'edited',
      version: updated.version,
      before: withNotes(current),
      after: withNotes(updated),
      // The ledger shows a new entry; an opening given new terms is named in the history.
      entry: entry ?? opening,
    });
    return updated;
  },
);

/**
 * Deletes a client with its ledger; its history stays in the log. The bank lines its payments
 * came from are freed (unless another client's payment holds one).
 */
export const deleteClient = command(async ({ trx, record }, bookId, id: string): Promise<void> => {
  const current = await currentClient(trx, bookId, id);
  // Its entries of a closed period would go with it (issue 59).
  await checkOpenPeriod(trx, bookId, await firstEntryDates(trx, bookId, id));
  const bankLines = await clientBankLines(trx, bookId, id);
  await removeClientFigures(trx, bookId, id);
  const removed = await deleteClientRow(trx, bookId, id);
  if (!removed) throw clientNotFound();
  await keepClientTotals(trx, bookId, [sumsPartOf(removed)], []);
  // Its payments are gone with it: their statement lines may be recorded again.
  await freeUnpaidLines(trx, bookId, bankLines);
  await record({
    clientId: id,
    action: 'deleted',
    version: current.version + 1,
    before: toSnapshot(current),
    after: null,
  });
});

/**
 * An import's checked rows, all or none; each balance other than 0 becomes an opening balance.
 * Answers whether balances were set to 0 because the owner turned them off on adding. Part of
 * the import's command (transfer/import.commands.ts), which checks the rows first.
 */
export async function addImportedClients(
  { trx, record, now, actor }: ChangeContext,
  bookId: string,
  rows: readonly ClientInput[],
): Promise<{ balancesZeroed: boolean }> {
  const { disableBalanceOnAdd } = await readPreferences(trx, bookId);
  const createdBy = actor?.userId ?? null;
  await record(await writeImportedClients(trx, bookId, createdBy, rows, disableBalanceOnAdd, now));
  return { balancesZeroed: disableBalanceOnAdd };
}

/**
 * The rows written under `scopeId`, the book or a staging book; answers their events. Their
 * opening balances are made by `createdBy`: a person, or nobody yet (null) while staged.
 */
async function writeImportedClients(
  trx: ChangeContext['trx'],
  scopeId: string,
  createdBy: string | null,
  rows: readonly ClientInput[],
  zeroBalances: boolean,
  now: number,
): Promise<NewEvent[]> {
  const clients = rows.map((row) => ({
    ...row,
    ...businessOf(row, noBusiness),
    balance: zeroBalances ? 0 : (row.balance ?? 0),
    id: newId(),
    openingDueDay: openingOf(row, now).dueDay,
  }));
  await keepClientTotals(trx, scopeId, [], await insertClients(trx, scopeId, clients, now));
  await addOpenings(trx, scopeId, clients, now, createdBy);
  return clients.map((client) => ({
    clientId: client.id,
    action: 'imported' as const,
    version: 1,
    before: null,
    after: toSnapshot(client),
  }));
}

/**
 * One slice of a large import, written under its staging account, where no owner's read sees it
 * (decision 042); answers the events its publishing records.
 */
export async function stageImportedClients(
  trx: ChangeContext['trx'],
  stagingId: string,
  rows: readonly ClientInput[],
  { zeroBalances, now }: { zeroBalances: boolean; now: number },
): Promise<NewEvent[]> {
  // A staging book is nobody's (entries.created_by names a person): publishing names the author.
  return writeImportedClients(trx, stagingId, null, rows, zeroBalances, now);
}

/** A large import's staged clients, their ledgers and sums, made the owner's in one statement each. */
export async function publishStagedClients(
  trx: ChangeContext['trx'],
  stagingId: string,
  bookId: string,
  createdBy: string | null,
): Promise<void> {
  await moveClients(trx, stagingId, bookId);
  await publishStagedLedger(trx, stagingId, bookId, createdBy);
}

/** Throws away up to `limit` of a staging account's clients; answers how many went. */
export const discardStagedClients = deleteSomeClients;

/** An export file's clients, with their ids; part of a restore (transfer/restore-plan.ts). */
export async function addRestoredClients(
  ...[trx, bookId, clients]: Parameters<typeof insertRestoredClients>
): Promise<void> {
  await keepClientTotals(trx, bookId, [], await insertRestoredClients(trx, bookId, clients));
}

/** Restored clients' own languages; part of a restore, whose `restored` events record them. */
export async function setRestoredClientLanguages(
  trx: ChangeContext['trx'],
  bookId: string,
  languages: readonly { id: string; language: Locale }[],
): Promise<void> {
  for (const { id, language } of languages) await updateClientLanguage(trx, bookId, id, language);
}

/** The language the client reads their link's page (and later reminders) in; null: the owner's. */
export const setClientLanguage = command(
  async ({ trx, record }, bookId, id: string, language: Locale | null): Promise<Locale | null> => {
    const client = await currentClient(trx, bookId, id);
    await updateClientLanguage(trx, bookId, id, language);
    const snapshot = toSnapshot(client);
    await record({
      clientId: id,
      action: 'language_set',
      version: client.version,
      before: snapshot,
      after: snapshot,
    });
    return language;
  },
);
