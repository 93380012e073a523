import {
  entryReferenceMaxLength,
  type BankConfirmBody,
  type BankConfirmed,
} from '../../../shared/schemas/bank.ts';
import { entryNoteMaxLength } from '../../../shared/schemas/ledger.ts';
import { AppError, fieldError, notFound } from '../../errors.ts';
import { newId } from '../../ids.ts';
import { currentClient } from '../clients/current-client.ts';
import { command, unchanged, type ChangeContext, type Command } from '../events/write-path.ts';
import { recordEntry, voidEntry } from '../ledger/ledger.commands.ts';
import { openCharges } from '../ledger/ledger.queries.ts';
import { buildMatchIndex, payerKey, payerRuleId, payerText } from './bank-matching.ts';
import { bankLineId, numberTwins } from './bank-statement.ts';
import {
  batchExists,
  batchPayments,
  claimLines,
  deleteRule,
  forgetBatchRules,
  insertBatch,
  insertRestoredBank,
  markBatchUndone,
  payerKeys,
  releaseLines,
  saveLayout,
  saveRule,
  setEntryBankLine,
} from './bank.repository.ts';
import { matchBookOf, matchBookRows } from './bank.queries.ts';

const bankUndoReason = 'bank import undone';

/** Another command of the write path, run inside this one's transaction. */
async function within<A extends unknown[], T>(
  context: ChangeContext,
  bookId: string,
  inner: Command<A, T>,
  ...args: A
): Promise<T> {
  const outcome = await (await inner.prepare(bookId, ...args))(context);
  if (outcome instanceof Error) throw new Error('a command inside a bank batch changed nothing');
  return outcome;
}

// A bank's description may hold tabs and line breaks; a note holds neither.
const noteOf = (description: string) =>
  description
    .replace(/[\p{Cc}\s]+/gu, ' ')
    .trim()
    .slice(0, entryNoteMaxLength);

/**
 * The confirmed lines of a statement, each recorded as payments (one per client it is split
 * between) through the ledger's own command, in one transaction. A line recorded before, here
 * or by another tab at the same moment, records nothing and is answered as already recorded.
 */
export const confirmBankLines = command(async (context, bookId, body: BankConfirmBody) => {
  const { trx, now } = context;
  // Lines sent without their occurrence (a script's) are counted among those confirmed.
  numberTwins(body.lines, true);
  const lines = body.lines.map((line, index) => {
    const total = line.allocations.reduce((sum, part) => sum + part.amount, 0);
    if (total !== line.amount)
      throw fieldError(`lines.${index}.allocations`, 'The parts must add up to the amount.');
    return { ...line, id: bankLineId(body.accountLabel, body.currency, line) };
  });
  const batchId = newId();
  // What a line may teach is judged against the book as the preview saw it, before this
  // import's payments: read once, and only when a line may teach something.
  let index: ReturnType<typeof buildMatchIndex> | undefined;
  const learning = async () =>
    (index ??= buildMatchIndex(matchBookOf(await matchBookRows(trx, bookId, body.currency))));
  await insertBatch(trx, { id: batchId, bookId, ...body, now });
  const taken = await claimLines(
    trx,
    bookId,
    batchId,
    lines.map((line) => line.id),
    now,
  );
  const answer: BankConfirmed = { batchId, recorded: [], alreadyRecorded: [] };
  for (const [index, line] of lines.entries()) {
    if (!taken.delete(line.id)) {
      answer.alreadyRecorded.push(line.id);
      continue;
    }
    const entryIds: number[] = [];
    for (const part of line.allocations) {
      const client = await currentClient(trx, bookId, part.clientId).catch((error: unknown) => {
        if (error instanceof AppError && error.status === 404)
          throw fieldError(`lines.${index}.allocations`, 'Client not found');
        throw error;
      });
      if (client.currency !== body.currency)
        throw fieldError(
          `lines.${index}.allocations`,
          'This client keeps their balance in another currency.',
        );
      // A charge named by the preview but paid since (by a line before this one, maybe) is left
      // out: this part then settles the oldest first, as a line without named charges does.
      const open = part.pays?.length ? await openCharges(trx, bookId, client.id) : [];
      const pays = (part.pays ?? []).filter((id) => open.some((charge) => charge.id === id));
      const { entry } = await within(context, bookId, recordEntry, client.id, {
        kind: 'payment',
        ...(pays.length > 0 && { pays }),
        method: 'bank_transfer',
        amount: part.amount,
        date: line.date,
        note: noteOf(
          line.counterparty?.trim() ? `${line.counterparty} ${line.description}` : line.description,
        ),
        ...(line.reference && { reference: line.reference.slice(0, entryReferenceMaxLength) }),
      });
      await setEntryBankLine(trx, bookId, entry.entryId, line.id);
      entryIds.push(entry.entryId);
    }
    const payer = payerKey(payerText(line));
    const [only] = line.allocations;
    const learnedFrom =
      payer !== '' && only && line.allocations.length === 1
        ? (await learning()).learnedFrom(line, only.clientId)
        : null;
    if (only && learnedFrom !== null)
      await saveRule(trx, {
        bookId,
        payerKey: payer,
        clientId: only.clientId,
        now,
        batchId,
        line: line.line,
        learnedFrom,
      });
    answer.recorded.push({ lineId: line.id, entryIds });
  }
  if (body.layout)
    await saveLayout(trx, {
      bookId,
      key: body.layout.key,
      mapping: JSON.stringify(body.layout.mapping),
      now,
    });
  // Nothing new: the batch (and the layout) is not kept.
  if (answer.recorded.length === 0) return unchanged({ ...answer, batchId: null });
  return answer;
});

/** The answers for a batch or a learned payer that is not the owner's, by the routes' checks too. */
export const batchNotFound = () => notFound('Bank import not found');
export const payerRuleNotFound = () => notFound('Learned payer not found');

/** Voids every payment of a confirmed batch still standing; its lines may be recorded again. */
export const undoBankBatch = command(async (context, bookId, batchId: string) => {
  const { trx, now } = context;
  if (!(await markBatchUndone(trx, bookId, batchId, now))) {
    if (!(await batchExists(trx, bookId, batchId))) throw batchNotFound();
    throw new AppError(409, 'conflict', 'This bank import has already been undone');
  }
  const payments = await batchPayments(trx, bookId, batchId);
  for (const payment of payments)
    await within(context, bookId, voidEntry, payment.client_id, payment.id, bankUndoReason);
  await releaseLines(trx, bookId, batchId);
  // The payers it taught are forgotten, those it changed given back (docs/decisions/030).
  await forgetBatchRules(trx, bookId, batchId);
  // Every payment was voided by hand already: nothing to record, the batch stays as it was.
  if (payments.length === 0) return unchanged({ voided: 0 });
  return { voided: payments.length };
});

/**
 * Forgets a learned payer: their next transfer is matched afresh, and a text confirmed for two
 * clients (which names nobody) may be learned again. An owner's setting, not a client's change.
 */
export const forgetPayerRule = command(
  async ({ trx, record }, bookId, ruleId: string): Promise<void> => {
    const key = (await payerKeys(trx, bookId)).find((each) => payerRuleId(each) === ruleId);
    if (key === undefined || !(await deleteRule(trx, bookId, key))) throw payerRuleNotFound();
    await record({
      clientId: null,
      action: 'settings_changed',
      version: 0,
      before: null,
      after: null,
    });
  },
);

/** A restore's bank imports, lines, learned payers and CSV layouts, in its transaction. */
export const addRestoredBank = insertRestoredBank;
