import type { Transaction } from 'kysely';
import { addDays, utcDay } from '../../../shared/dates.ts';
import { maxAmountMinor, type Currency } from '../../../shared/money.ts';
import {
  openingDateProblems,
  type BalanceUpdate,
  type Client,
} from '../../../shared/schemas/clients.ts';
import type { EntryDetail, EventAction } from '../../../shared/schemas/events.ts';
import {
  recordedSign,
  type EntryInput,
  type EntryKind,
  type PaymentMethod,
} from '../../../shared/schemas/ledger.ts';
import type { Database, Executor } from '../../db/database.ts';
import { isUniqueViolation } from '../../db/errors.ts';
import { AppError, fieldError, notFound } from '../../errors.ts';
import { freeUnpaidLines } from '../bank/bank-lines.commands.ts';
import { conflict, currentClient } from '../clients/current-client.ts';
import { toSnapshot } from '../clients/clients.queries.ts';
import {
  command,
  heldLockDate,
  unchanged,
  type ChangeContext,
  type Unchanged,
} from '../events/write-path.ts';
import { readLockDate, readPreferences } from '../settings/settings.queries.ts';
import { allocate, dueDay, type PaymentTarget } from './ageing.ts';
import { keepClientSums, keepOpenSums, moveKeptSums } from './kept-sums.repository.ts';
import {
  addToLedgerMonths,
  moveLedgerMonths,
  removeClientFromLedgerFigures,
} from './ledger-months.repository.ts';
import {
  applyToBalance,
  insertEntries,
  insertEntry,
  insertPaymentTargets,
  insertRestoredEntry,
  linkRestoredCorrections,
  moveEntries,
  openPartOf,
  setEntryTerms,
  setOldestDue,
  setOpenAmount,
  type NewEntry,
} from './ledger.repository.ts';
import {
  findEntry,
  findStandingCorrection,
  hasPaymentTargets,
  ledgerLines,
  ledgerPage,
  ledgerPageSizes,
  liveOpenings,
  newestEnd,
  paymentTargets,
  stagedDates,
  toEntryDetail,
} from './ledger.queries.ts';

// Every change of a client's ledger (charges, payments, credits, voids, the balance set by hand)
// and the figures kept from it: what is unpaid of each entry, the oldest unpaid day, the balance.
// Each public change is a command on the one write path; the client's own commands
// (clients.commands.ts) use the functions exported here for opening balances and edits.

type Trx = Transaction<Database>;

const alreadyVoided = () => new AppError(409, 'conflict', 'This entry has already been voided');

/** A balance stays within what one amount may be, so sums stay exact and displayable. */
function checkBalanceRange(balance: number, field: string) {
  if (Math.abs(balance) > maxAmountMinor)
    throw fieldError(field, 'The balance would be too large.');
}

/**
 * The browser's today may be a day ahead of the server's (time zones); anything later than that
 * has not happened yet. Before 1900 is a typing slip.
 */
function checkEntryDate(date: string, now: number, field = 'date') {
  if (date > addDays(utcDay(now), 1)) throw fieldError(field, 'The date cannot be in the future.');
  if (date < '1900-01-01') throw fieldError(field, 'Use a date in 1900 or later.');
}

/**
 * Applies a new entry to the client's balance (at `ifVersion` when given) and records the
 * change. The snapshot before is the one after less the entry: exact even when another entry
 * landed in between.
 */
async function applyEntry(
  { trx, record, now }: ChangeContext,
  bookId: string,
  id: string,
  change: { entry: EntryDetail; action: EventAction; ifVersion?: number },
): Promise<Client> {
  const { entry, action, ifVersion } = change;
  const applied = await applyToBalance(trx, bookId, id, entry, now, ifVersion);
  if (!applied) throw conflict();
  checkBalanceRange(applied.balance, 'amount');
  const after = await settleChange(trx, bookId, applied, entry);
  await record({
    clientId: id,
    action,
    version: after.version,
    before: { ...toSnapshot(after), balance: after.balance - entry.amount },
    after: toSnapshot(after),
    entry,
  });
  return after;
}

/**
 * Works out again which amounts are still unpaid after a change of the ledger (payments and
 * credits settle the oldest first) and keeps it on the entries and the client, reading the
 * whole ledger. For a change of currency; every other change walks only the entries it can
 * move (`settleChange`).
 */
export async function reallocate(trx: Trx, bookId: string, client: Client): Promise<Client> {
  const lines = await ledgerLines(trx, bookId, client.id);
  const targets = await paymentTargets(trx, bookId, client.id);
  // Entries left in an earlier currency (an opening and its void) are owed by nobody.
  const { open, oldestDue } = allocate(
    lines.filter((line) => line.currency === client.currency),
    targets,
  );
  for (const line of lines) {
    const openAmount = open.get(line.id) ?? 0;
    if (openAmount !== line.openAmount) await setOpenAmount(trx, bookId, line.id, openAmount);
  }
  if (oldestDue !== client.oldestDueDate) await setOldestDue(trx, bookId, client.id, oldestDue);
  return { ...client, oldestDueDate: oldestDue };
}

/**
 * What `reallocate` would leave after one new entry (`client` as it is after it; a void takes
 * the entry it reverses out of the ledger), reading only the entries the change can move.
 *
 * What is unpaid is the newest amounts owed, up to the balance (`allocate`). Walking the amounts
 * owed newest first, the new allocation places the balance after the entry; the stored one
 * placed the balance before it. Where both have the same amount left to place, every older entry
 * keeps what it has, and the walk stops. Over the same entries two different amounts left become
 * equal only at 0, where every older entry is 0 on both sides (the new entry is stored as 0, and
 * the voided one was paid), so the walk cannot stop wrongly before it has passed them. A charge
 * dated today stops within the first page; a payment walks what was unpaid. Should the walk
 * read to the end with something left to place (stored amounts that do not add up), or the
 * oldest unpaid day be undecidable from what was read, the whole ledger is worked out again.
 * Stored amounts that are wrong in entries the walk does not reach stay as they are.
 *
 * A client any of whose payments names the charges it pays (migration 0043) has its whole ledger
 * worked out again: a named charge is paid out of date order, which the walk does not follow.
 */
export async function settleChange(
  trx: Trx,
  bookId: string,
  client: Client,
  entry: EntryDetail,
): Promise<Client> {
  if (await hasPaymentTargets(trx, bookId, client.id)) return reallocate(trx, bookId, client);
  let toPlace = Math.max(client.balance, 0);
  let toPlaceBefore = Math.max(client.balance - entry.amount, 0);
  /** The earliest due day of the entries read that are unpaid, and of those paid by this change. */
  let oldestRead: string | null = null;
  let closedDue: string | null = null;
  let at = newestEnd;
  let agree = toPlace === toPlaceBefore;
  for (let page = 0; !agree; page++) {
    const limit = ledgerPageSizes[Math.min(page, ledgerPageSizes.length - 1)] as number;
    const lines = await ledgerPage(trx, bookId, client.id, at, limit);
    // Every line is an amount owed when entered (`ledgerPage`): still owed unless it is a void
    // (of a payment), voided, or left in an earlier currency.
    for (const line of lines) {
      const owes =
        line.voidOf === null && line.voidedBy === null && line.currency === client.currency;
      // Before the change: the same, but the new entry was not there and a voided one was.
      const owed = line.id === entry.voidOf || (owes && line.id !== entry.entryId);
      const open = owes ? Math.min(line.amount, toPlace) : 0;
      toPlace -= open;
      if (owed) toPlaceBefore -= line.openAmount;
      if (open !== line.openAmount) {
        await setOpenAmount(trx, bookId, line.id, open);
        if (open === 0) {
          const due = dueDay(line);
          if (closedDue === null || due < closedDue) closedDue = due;
        }
      }
      if (open > 0) {
        const due = dueDay(line);
        if (oldestRead === null || due < oldestRead) oldestRead = due;
      }
      agree = toPlace === toPlaceBefore;
      if (agree) break;
    }
    if (agree || lines.length < limit) break;
    const last = lines[lines.length - 1] as (typeof lines)[number];
    at = { day: last.date, id: last.id };
  }
  // Read to the end: everything must be placed, by both allocations.
  if (!agree && (toPlace !== 0 || toPlaceBefore !== 0)) return reallocate(trx, bookId, client);
  let oldestDue: string | null;
  if (toPlace === 0) {
    // Nothing older is unpaid, before or after: every unpaid entry was read.
    oldestDue = oldestRead;
  } else {
    // Older unpaid entries were not read, and kept what they had. The stored oldest day still
    // holds for them unless it may have been an entry that is paid now.
    const stored = client.oldestDueDate;
    if (stored === null || (closedDue !== null && closedDue <= stored))
      return reallocate(trx, bookId, client);
    oldestDue = oldestRead !== null && oldestRead < stored ? oldestRead : stored;
  }
  if (oldestDue !== client.oldestDueDate) await setOldestDue(trx, bookId, client.id, oldestDue);
  return { ...client, oldestDueDate: oldestDue };
}

export interface EntryOf {
  openAmount?: number;
  kind: EntryKind;
  amount: number;
  currency: Currency;
  date: string;
  dueDate?: string | null;
  note?: string;
  reference?: string;
  voidOf?: number | null;
  method?: PaymentMethod | null;
  corrects?: number | null;
}

function periodClosed(lockDate: string, dates: readonly string[] = []): AppError {
  return new AppError(
    409,
    'period_closed',
    'The books are closed up to {lockDate}: nothing dated on or before it can be recorded or changed',
    { values: { lockDate, dates: dates.join(', ') } },
  );
}

/**
 * Every write dated on or before the day the book is closed up to is refused (issue 59,
 * decision 046): entries recorded, voided or moved, openings, imports, bank lines.
 */
export async function checkOpenPeriod(
  trx: Trx,
  bookId: string,
  dates: readonly string[],
): Promise<void> {
  const found = await closedPeriodOf(trx, bookId, dates, (date) => date);
  if (found && found.closed.length > 0) throw periodClosed(found.lockDate, found.closed);
}

/**
 * The day the book is closed up to, and those of `items` dated on or before it; null while the
 * book is open. The one rule of a closed period, for every writer and a restore's preview (which
 * names the file's entries in its own message).
 */
export async function closedPeriodOf<Item>(
  db: Executor,
  bookId: string,
  items: readonly Item[],
  dateOf: (item: Item) => string,
): Promise<{ lockDate: string; closed: Item[] } | null> {
  if (items.length === 0) return null;
  // Read as the write path held the book; a staging book's is its target's, asked on publishing.
  const held = heldLockDate(db);
  const lockDate = held === undefined ? await readLockDate(db, bookId) : held;
  if (lockDate === null) return null;
  return { lockDate, closed: items.filter((item) => dateOf(item) <= lockDate) };
}

/** `createdBy`: the person who made it (entries.created_by names a person), or nobody. */
export async function addEntry(
  trx: Trx,
  bookId: string,
  clientId: string,
  entry: EntryOf,
  now: number,
  createdBy: string | null,
): Promise<EntryDetail> {
  await checkOpenPeriod(trx, bookId, [entry.date]);
  const row = await insertEntry(
    trx,
    {
      bookId,
      clientId,
      kind: entry.kind,
      amount: entry.amount,
      currency: entry.currency,
      date: entry.date,
      dueDate: entry.dueDate ?? null,
      note: entry.note ?? '',
      reference: entry.reference ?? '',
      voidOf: entry.voidOf ?? null,
      corrects: entry.corrects ?? null,
      createdBy,
      openAmount: entry.openAmount ?? 0,
      method: entry.method ?? null,
    },
    now,
  );
  return toEntryDetail(row);
}

/**
 * The inline balance edit: sets the balance by an adjustment of the difference, but only if the
 * balance is still the one the user started from; otherwise the user sees the conflict.
 */
export const setBalance = command(
  async (
    context,
    bookId,
    id: string,
    { balance, previousBalance, version }: BalanceUpdate,
  ): Promise<Client | Unchanged<Client>> => {
    const { trx, now, actor } = context;
    const current = await currentClient(trx, bookId, id);
    const { disableBalanceOnEdit } = await readPreferences(trx, bookId);
    if (disableBalanceOnEdit)
      throw new AppError(403, 'forbidden', 'Changing the balance is turned off in Settings');
    if (previousBalance !== undefined && current.balance !== previousBalance) throw conflict();
    if (version !== undefined && current.version !== version) throw conflict();
    if (balance === current.balance) return unchanged(current);
    const entry = await addEntry(
      trx,
      bookId,
      id,
      {
        kind: 'adjustment',
        amount: balance - current.balance,
        currency: current.currency,
        date: utcDay(now),
        note: 'Balance set on the details page',
      },
      now,
      actor?.userId ?? null,
    );
    // At the version read: a change that slipped in after the check above is a conflict too.
    return applyEntry(context, bookId, id, {
      entry,
      action: 'balance_changed',
      ifVersion: current.version,
    });
  },
);

/** A charge named in `pays` that cannot be paid, named by its id. */
const paysError = (text: string, id: number) =>
  new AppError(400, 'validation', 'Invalid {names}', {
    values: { names: 'pays' },
    fields: { pays: { text, values: { id } } },
  });

/**
 * The charges a new payment or credit names (`pays`), each with the part of it that goes there:
 * what is unpaid of it, in the order named, while the payment lasts. Each must be an amount the
 * client owes in their currency, not voided and not yet paid; refused with the field named.
 */
async function targetsOf(
  trx: Trx,
  bookId: string,
  client: Client,
  input: Pick<EntryInput, 'kind' | 'amount' | 'pays'>,
): Promise<{ chargeId: number; amount: number }[]> {
  if (input.pays === undefined || input.pays.length === 0) return [];
  if (input.kind === 'charge') throw fieldError('pays', 'Only a payment or a credit pays charges.');
  if (new Set(input.pays).size !== input.pays.length)
    throw fieldError('pays', 'Name each charge once.');
  let left = input.amount;
  const targets: { chargeId: number; amount: number }[] = [];
  for (const chargeId of input.pays) {
    const charge = await findEntry(trx, bookId, client.id, chargeId);
    if (
      !charge ||
      charge.amount <= 0 ||
      charge.void_of !== null ||
      charge.voided_by !== null ||
      charge.currency !== client.currency
    )
      throw paysError('Entry {id} is not an amount this client owes.', chargeId);
    const open = Number(charge.open_amount);
    if (open === 0) throw paysError('Entry {id} is already paid.', chargeId);
    if (left === 0) throw paysError('The amount is used up before entry {id}.', chargeId);
    const put = Math.min(open, left);
    targets.push({ chargeId, amount: put });
    left -= put;
  }
  return targets;
}

/** A charge, payment or credit; appends never conflict with each other. */
export const recordEntry = command(
  async (
    context,
    bookId,
    id: string,
    input: EntryInput,
  ): Promise<{ client: Client; entry: EntryDetail }> => {
    const { trx, now, actor } = context;
    const date = input.date ?? utcDay(now);
    checkEntryDate(date, now);
    if (input.dueDate && input.dueDate < date)
      throw fieldError('dueDate', 'The due date cannot be before the date of the charge.');
    if (input.method !== undefined && input.kind !== 'payment')
      throw fieldError('method', 'Only a payment has a method.');
    const current = await currentClient(trx, bookId, id);
    if (input.corrects !== undefined) {
      // The entry it puts right: one of this client's, standing (issue 59).
      const corrected = await findEntry(trx, bookId, id, input.corrects);
      if (!corrected || corrected.kind === 'void' || corrected.voided_by !== null)
        throw fieldError('corrects', 'Choose a standing entry of this client.');
    }
    const amount = recordedSign[input.kind] * input.amount;
    const targets = await targetsOf(trx, bookId, current, input);
    const entry = await addEntry(
      trx,
      bookId,
      id,
      {
        kind: input.kind,
        amount,
        currency: current.currency,
        date,
        dueDate: input.kind === 'charge' ? (input.dueDate ?? null) : null,
        note: input.note ?? '',
        reference: input.reference ?? '',
        // Not said, not written: a statement must not tell a client a payment came by a way
        // nobody recorded (the form preselects one, in sight; the bank import says its own).
        method: input.kind === 'payment' ? (input.method ?? null) : null,
        corrects: input.corrects ?? null,
      },
      now,
      actor?.userId ?? null,
    );
    await insertPaymentTargets(trx, bookId, id, entry.entryId, targets);
    const client = await applyEntry(context, bookId, id, { entry, action: 'entry_recorded' });
    return { client, entry };
  },
);

/** Reverses an entry with a new one that names it and says why; entries are never edited. */
export const voidEntry = command(
  async (
    context,
    bookId,
    id: string,
    entryId: number,
    reason: string,
  ): Promise<{ client: Client; entry: EntryDetail }> => {
    const { trx, now, actor } = context;
    const current = await currentClient(trx, bookId, id);
    const original = await findEntry(trx, bookId, id, entryId);
    if (!original) throw notFound('Entry not found');
    if (original.kind === 'void')
      throw new AppError(409, 'conflict', 'A void cannot be voided; record a new entry instead');
    if (original.voided_by !== null) throw alreadyVoided();
    // Reversed once by its correction, it must not be reversed a second time by a void.
    const correction = await findStandingCorrection(trx, bookId, original.id);
    if (correction !== undefined)
      throw new AppError(
        409,
        'conflict',
        'This entry was corrected by entry #{correction}; void that correction first',
        { values: { correction } },
      );
    // A closed period's entry is corrected in the open one, never voided (issue 59).
    await checkOpenPeriod(trx, bookId, [original.occurred_on]);
    if (original.currency !== current.currency)
      throw new AppError(409, 'conflict', 'This entry was recorded in another currency');
    let entry: EntryDetail;
    try {
      entry = await addEntry(
        trx,
        bookId,
        id,
        {
          kind: 'void',
          amount: -original.amount,
          currency: current.currency,
          date: utcDay(now),
          note: reason,
          voidOf: original.id,
        },
        now,
        actor?.userId ?? null,
      );
    } catch (error) {
      // Another void of the same entry committed first.
      if (isUniqueViolation(error)) throw alreadyVoided();
      throw error;
    }
    // A payment from a bank statement no longer counts: its line may be recorded again.
    if (original.bank_line_id !== null) await freeUnpaidLines(trx, bookId, [original.bank_line_id]);
    const client = await applyEntry(context, bookId, id, { entry, action: 'entry_voided' });
    return { client, entry };
  },
);

/** How an opening balance was given: the form's or an import row's fields. */
export interface OpeningTerms {
  openingDate?: string | undefined;
  openingDueDate?: string | null | undefined;
  openingReference?: string | undefined;
}

/**
 * An opening balance's date (today when not given), due date (null: due on its date) and
 * reference, and the day it falls due; refused with the field named when a date is wrong.
 */
export function openingOf(terms: OpeningTerms, now: number) {
  const today = utcDay(now);
  const [field, problem] = Object.entries(openingDateProblems(terms, today))[0] ?? [];
  if (field && problem) throw fieldError(field, problem);
  const date = terms.openingDate ?? today;
  const dueDate = terms.openingDueDate ?? null;
  return { date, dueDate, reference: terms.openingReference ?? '', dueDay: dueDate ?? date };
}

/**
 * The Edit form's new terms for the client's opening balance (in its currency, not voided): each
 * term left out stays as it is, and the whole is checked as on creation. Answers the opening as
 * changed, or null when nothing was asked or nothing changed. A new day moves its amount between
 * the month figures; the caller works out again what is unpaid (`reallocate`), since the order
 * in which payments settle amounts may have changed.
 */
export async function changeOpeningTerms(
  trx: Trx,
  bookId: string,
  client: Client,
  terms: OpeningTerms,
  now: number,
): Promise<EntryDetail | null> {
  const asked = (Object.keys(terms) as (keyof OpeningTerms)[]).filter(
    (key) => terms[key] !== undefined,
  );
  if (asked.length === 0) return null;
  const opening = (await liveOpenings(trx, bookId, client.id)).find(
    (entry) => entry.currency === client.currency,
  );
  if (!opening) throw fieldError(asked[0] as string, 'This client has no opening balance.');
  const next = openingOf(
    {
      openingDate: terms.openingDate ?? opening.occurred_on,
      openingDueDate: terms.openingDueDate === undefined ? opening.due_on : terms.openingDueDate,
      openingReference: terms.openingReference ?? opening.reference,
    },
    now,
  );
  if (
    next.date === opening.occurred_on &&
    next.dueDate === opening.due_on &&
    next.reference === opening.reference
  )
    return null;
  await checkOpenPeriod(trx, bookId, [opening.occurred_on, next.date]);
  const changed = await setEntryTerms(trx, bookId, opening.id, next);
  if (next.date.slice(0, 7) !== opening.occurred_on.slice(0, 7)) {
    const amount = { bookId, currency: opening.currency, amount: opening.amount };
    await addToLedgerMonths(trx, [{ ...amount, date: opening.occurred_on }], -1);
    await addToLedgerMonths(trx, [{ ...amount, date: next.date }]);
  }
  return toEntryDetail(changed);
}

/**
 * The opening balances of clients brought in at once (an import): each balance other than 0,
 * dated as given (today when not), unpaid as far as it is owed.
 */
export async function addOpenings(
  trx: Trx,
  bookId: string,
  clients: readonly ({ id: string; balance: number; currency: Currency } & OpeningTerms)[],
  now: number,
  createdBy: string | null,
): Promise<void> {
  const openings: NewEntry[] = clients.flatMap((client) =>
    client.balance === 0
      ? []
      : [
          {
            bookId,
            clientId: client.id,
            kind: 'opening' as const,
            amount: client.balance,
            currency: client.currency,
            ...openingOf(client, now),
            note: '',
            voidOf: null,
            createdBy,
            openAmount: Math.max(client.balance, 0),
          },
        ],
  );
  // A staging book has no settings: the staged dates are checked when published.
  await checkOpenPeriod(
    trx,
    bookId,
    openings.map((opening) => opening.date),
  );
  await insertEntries(trx, openings, now);
}

/** The charges a restore's payments name, by the entries' new ids. */
export async function addRestoredTargets(
  trx: Trx,
  bookId: string,
  targets: readonly (PaymentTarget & { clientId: string })[],
): Promise<void> {
  for (const target of targets)
    await insertPaymentTargets(trx, bookId, target.clientId, target.paymentId, [target]);
}

/** One entry of an export file, as it was (restore); answers its new id. */
export const addRestoredEntry = insertRestoredEntry;
export { linkRestoredCorrections };
/**
 * A restore's entries, added to the month figures and their unpaid amounts to the kept sums once
 * all are in (`addRestoredEntry` adds neither).
 */
export async function addRestoredFigures(
  trx: Trx,
  bookId: string,
  entries: readonly Pick<NewEntry, 'currency' | 'date' | 'dueDate' | 'amount' | 'openAmount'>[],
): Promise<void> {
  await addToLedgerMonths(
    trx,
    entries.map((entry) => ({ ...entry, bookId })),
  );
  await keepOpenSums(trx, bookId, entries.map(openPartOf));
}
/** A client's entries, taken out of the month figures and the kept sums before the client goes. */
export const removeClientFigures = removeClientFromLedgerFigures;
/**
 * Clients added, changed or deleted: their rows as they were and as they are, for the kept sums.
 * Every writer of a client's row calls it in the same transaction (clients.commands.ts; the
 * ledger's own writers of the balance and oldest unpaid day in ledger.repository.ts).
 */
export const keepClientTotals = keepClientSums;
export type { ClientPart } from './kept-sums.repository.ts';
export type { NewEntry };

/**
 * A large import's entries and what they added to the kept sums and month figures, written under
 * its staging account, made the owner's: part of the import's publishing (decision 042).
 */
export async function publishStagedLedger(
  trx: Trx,
  stagingId: string,
  bookId: string,
  createdBy: string | null,
) {
  await checkOpenPeriod(trx, bookId, await stagedDates(trx, stagingId));
  await moveEntries(trx, stagingId, bookId, createdBy);
  await moveKeptSums(trx, stagingId, bookId);
  await moveLedgerMonths(trx, stagingId, bookId);
}
